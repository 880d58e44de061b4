<?php
// Sign and submit an order, query, close or refund it, receive the notifications. PHP 8, no extensions beyond the core.
//
//   export BASE_URL=http://localhost:3000 APP_ID=mch_YOUR_APP_ID APP_SECRET=...
//   php payment.php submit USDT ORDER-1 10.50 http://127.0.0.1:8080/notify   # or ALIPAY, WECHAT, YHT
//   php payment.php query USDT ORDER-1
//   php payment.php close ORDER-1     # a pending order, on any channel
//   php payment.php refund ORDER-3 REFUND-1 5.00 http://127.0.0.1:8080/notify   # part of a paid ALIPAY or WECHAT order
//   php payment.php refund-query REFUND-1
//   php -S 0.0.0.0:8080 payment.php   # your notifyUrl (or serve this file from your web server); paid orders go to PAID_ORDERS_FILE,
//                                     # succeeded refunds to REFUNDS_FILE, abnormal ones to ABNORMAL_REFUNDS_FILE
//   php payment.php sign < fields     # one form-encoded set of fields a line -> its signature

$baseUrl = getenv('BASE_URL') ?: 'http://localhost:3000';
$appId = getenv('APP_ID') ?: 'mch_YOUR_APP_ID';
$appSecret = getenv('APP_SECRET') ?: ''; // Interface keys in the back office: keep it on your server, never in code
$paidOrdersFile = getenv('PAID_ORDERS_FILE') ?: 'paid-orders.txt';
$refundsFile = getenv('REFUNDS_FILE') ?: 'refunds.txt';
$abnormalRefundsFile = getenv('ABNORMAL_REFUNDS_FILE') ?: 'abnormal-refunds.txt';

// Non-empty fields but signature, sorted by name (ASCII), name=value joined by &, + &appsecret=..., MD5, upper-case hex.
function sign(array $fields, string $appSecret): string
{
    unset($fields['signature']);
    // Not array_filter's default: it would drop "0", which is a value.
    $fields = array_filter($fields, fn ($value) => $value !== null && $value !== '');
    ksort($fields, SORT_STRING); // byte order; the default flags would sort numeric-looking names as numbers
    $pairs = [];
    foreach ($fields as $name => $value) {
        $pairs[] = $name . '=' . $value;
    }
    return strtoupper(md5(implode('&', $pairs) . '&appsecret=' . $appSecret));
}

// What each channel needs besides the common fields; each names its amount differently.
function channelFields(string $channel, string $amount): array
{
    return match ($channel) {
        'USDT' => ['payType' => 'USDT', 'pay_usdt' => $amount, 'chainType' => '1'],
        'ALIPAY' => ['payType' => 'ALIPAY', 'payMethod' => 'web', 'amount' => $amount, 'redirectUrl' => 'https://merchant.example/return'],
        'WECHAT' => ['payType' => 'WECHAT', 'payMethod' => 'native', 'amount' => $amount],
        'YHT' => ['payType' => 'YHT', 'channel' => 'YHT', 'payMethod' => 'aliPay', 'payMoney' => $amount],
    };
}

function post(string $path, array $fields): array
{
    global $baseUrl, $appSecret;
    $fields['signature'] = sign($fields, $appSecret);
    $body = json_encode($fields, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
    $context = stream_context_create(['http' => [
        'method' => 'POST',
        'header' => "Content-Type: application/json\r\n",
        'content' => $body,
        'timeout' => 15,
    ]]);
    $answer = file_get_contents($baseUrl . $path, false, $context);
    if ($answer === false) {
        throw new RuntimeException("no answer from $baseUrl$path");
    }
    return json_decode($answer, true); // [code, message, data]: code 0 is success
}

function submit(string $channel, string $merchantOrderNo, string $amount, string $notifyUrl): array
{
    global $appId;
    $fields = ['appId' => $appId, 'merchantOrderNo' => $merchantOrderNo, 'notifyUrl' => $notifyUrl, 'productName' => 'VIP 会员', 'attach' => 'user=42'];
    return post('/v1/api/open/order/submit', $fields + channelFields($channel, $amount));
}

function query(string $channel, string $merchantOrderNo): array
{
    global $appId;
    return post('/v1/api/open/order/query', ['appId' => $appId, 'merchantOrderNo' => $merchantOrderNo, 'payType' => $channel]);
}

function close(string $merchantOrderNo): array
{
    global $appId;
    return post('/v1/api/open/order/close', ['appId' => $appId, 'merchantOrderNo' => $merchantOrderNo]);
}

// $merchantRefundNo is the idempotency key: send the same fields again after no answer, never a new number.
function refund(string $merchantOrderNo, string $merchantRefundNo, string $refundAmount, string $notifyUrl = ''): array
{
    global $appId;
    $fields = ['appId' => $appId, 'merchantOrderNo' => $merchantOrderNo, 'merchantRefundNo' => $merchantRefundNo, 'refundAmount' => $refundAmount, 'reason' => 'goods returned'];
    if ($notifyUrl !== '') {
        $fields['notifyUrl'] = $notifyUrl; // without it, no refund notice: query the refund instead
    }
    return post('/v1/api/open/refund/submit', $fields);
}

function refundQuery(string $merchantRefundNo): array
{
    global $appId;
    return post('/v1/api/open/refund/query', ['appId' => $appId, 'merchantRefundNo' => $merchantRefundNo]);
}

// Your own work, done before answering success: here a file stands in for your database. Idempotent, because the
// same notification can arrive more than once.
function recordOnce(string $file, string $number): void
{
    $recorded = is_file($file) ? file($file, FILE_IGNORE_NEW_LINES) : [];
    if (!in_array($number, $recorded, true) && file_put_contents($file, "$number\n", FILE_APPEND | LOCK_EX) === false) {
        throw new RuntimeException("could not record $number");
    }
}

// The notifyUrl: the service POSTs a form, so the fields are in $_POST.
function receiveNotification(): void
{
    global $appId, $appSecret, $paidOrdersFile, $refundsFile, $abnormalRefundsFile;
    $form = $_POST;
    $given = strtoupper((string) ($form['signature'] ?? ''));
    if (($form['appId'] ?? '') !== $appId || !hash_equals(sign($form, $appSecret), $given)) {
        http_response_code(400); // anything but success: not acknowledged
        exit('bad signature');
    }
    // Only PAID is a payment: a refund notice (notifyType refund) or a close notice (CLOSED, EXPIRED) is not.
    // Each throws on failure: no success, so the service sends it again.
    $status = $form['status'] ?? '';
    if (($form['notifyType'] ?? '') === 'refund') {
        if ($status === 'succeeded') {
            recordOnce($refundsFile, $form['merchantRefundNo']);
        } elseif ($status === 'abnormal') {
            // an abnormal refund (WeChat Pay ABNORMAL): the money left your balance, the payer could not take it; apply the remedy in the portal, never refund it again
            recordOnce($abnormalRefundsFile, $form['merchantRefundNo']);
        }
    } elseif ($status === 'PAID') {
        recordOnce($paidOrdersFile, $form['merchantOrderNo']);
    }
    echo 'success';
}

if (PHP_SAPI !== 'cli') {
    receiveNotification();
    return;
}
$command = $argv[1] ?? '';
if ($command === 'sign') {
    while (($line = fgets(STDIN)) !== false) {
        parse_str(rtrim($line, "\n"), $fields);
        echo sign($fields, $appSecret), "\n";
    }
    exit(0);
}
$calls = ['submit' => 'submit', 'query' => 'query', 'close' => 'close', 'refund' => 'refund', 'refund-query' => 'refundQuery'];
if (!isset($calls[$command])) {
    fwrite(STDERR, "usage: php payment.php submit|query|close|refund|refund-query|sign ...  (or php -S 0.0.0.0:8080 payment.php)\n");
    exit(2);
}
$answer = $calls[$command](...array_slice($argv, 2));
echo json_encode($answer, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), "\n";
exit($answer['code'] === 0 ? 0 : 1);
