import { CLOSE_PATH, QUERY_PATH, REFUND_QUERY_PATH, REFUND_SUBMIT_PATH, SUBMIT_PATH } from '../contract/open-api-paths';
import { PLACEHOLDER_APP_SECRET, signedExample, type ExampleFields } from '../contract/examples';
import { CHANNELS } from '../channels';
import type { Channel } from '../channels/channel';
import { refundQueryExample, refundSubmitExample } from '../refunds/refund-examples';

/**
 * Copyable examples for the portal's API reference: submit, query, close and the notification, in five languages, each
 * computing the signature per the contract. They carry the merchant's own AppID and a placeholder secret, never
 * the real AppSecret (a page must not be enough to sign orders).
 */
export type ExampleLanguage = 'curl' | 'typescript' | 'php' | 'python' | 'java';
export type ExampleOperation = 'submit' | 'query' | 'close' | 'notification' | 'refund' | 'refundQuery';

export interface CodeExample {
  operation: ExampleOperation;
  language: ExampleLanguage;
  label: string;
  code: string;
}

export const EXAMPLE_LANGUAGES: readonly { language: ExampleLanguage; label: string }[] = [
  { language: 'curl', label: 'curl' },
  { language: 'typescript', label: 'TypeScript' },
  { language: 'php', label: 'PHP' },
  { language: 'python', label: 'Python' },
  { language: 'java', label: 'Java' },
];

export const SECRET_PLACEHOLDER = PLACEHOLDER_APP_SECRET;
const SECRET_NOTE = 'placeholder: put your AppSecret here (Interface keys), keep it on your server, never commit it';

export { CLOSE_PATH, QUERY_PATH, REFUND_QUERY_PATH, REFUND_SUBMIT_PATH, SUBMIT_PATH };

/** Literal of a string in TypeScript, Python and Java: JSON's double-quoted form is valid in all three for these values. */
const dq = (value: string) => JSON.stringify(value);
const phpString = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const shellString = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The fields but `signature`, non-empty, sorted by name as the contract sorts them (ASCII, case-sensitive). */
function signedNames(fields: ExampleFields): string[] {
  return Object.keys(fields)
    .filter((name) => name !== 'signature' && fields[name] !== '')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

// ---------- curl (POSIX shell: printf + md5sum) ----------

function shellSignature(fields: ExampleFields, valueOf: (name: string) => string): string[] {
  const text = signedNames(fields)
    .map((name) => `${name}=${valueOf(name)}`)
    .join('&');
  return [
    '# Signed text: every non-empty field but signature, sorted by name (ASCII), name=value joined by &, then &appsecret=<AppSecret>',
    `SIGN_TEXT="${text}&appsecret=$APP_SECRET"`,
    `SIGNATURE=$(printf '%s' "$SIGN_TEXT" | md5sum | cut -d' ' -f1 | tr 'a-f' 'A-F')   # MD5, uppercase hex`,
  ];
}

function curlHeader(appId: string, baseUrl: string): string[] {
  return [`BASE_URL=${shellString(baseUrl)}`, `APP_ID=${shellString(appId)}`, `APP_SECRET=${shellString(SECRET_PLACEHOLDER)}   # ${SECRET_NOTE}`, ''];
}

/** Field values in the shell text: the AppID comes from $APP_ID, the rest are literal (they hold no shell metacharacters). */
const shellValue = (fields: ExampleFields) => (name: string) => (name === 'appId' ? '$APP_ID' : fields[name]!);

function curlRequest(fields: ExampleFields, appId: string, baseUrl: string, path: string): string {
  const json = Object.keys(fields)
    .map((name) => (name === 'appId' ? `"appId":"'"$APP_ID"'"` : `${JSON.stringify(name)}:${JSON.stringify(fields[name])}`))
    .join(',');
  return [
    ...curlHeader(appId, baseUrl),
    ...shellSignature(fields, shellValue(fields)),
    '',
    `curl -s "$BASE_URL${path}" -H 'Content-Type: application/json' \\`,
    `  -d '{${json},"signature":"'"$SIGNATURE"'"}'`,
  ].join('\n');
}

function curlNotification(fields: ExampleFields, appId: string): string {
  const form = Object.keys(fields).map((name) => `  --data-urlencode "${name}=${shellValue(fields)(name)}" \\`);
  return [
    '# Try your notifyUrl with a notification signed as the service signs it (form POST).',
    `NOTIFY_URL='https://merchant.example/notify'   # your notifyUrl`,
    `APP_ID=${shellString(appId)}`,
    `APP_SECRET=${shellString(SECRET_PLACEHOLDER)}   # ${SECRET_NOTE}`,
    '',
    ...shellSignature(fields, shellValue(fields)),
    '',
    'curl -s "$NOTIFY_URL" \\',
    ...form,
    '  --data-urlencode "signature=$SIGNATURE"',
    '# Your endpoint must answer HTTP 200 with the body: success',
  ].join('\n');
}

// ---------- TypeScript (Node 18+: fetch + node:crypto) ----------

const TS_SIGN = `/** The contract's signature: non-empty fields but signature, sorted by name (ASCII), name=value&…, + &appsecret=, MD5, uppercase hex. */
export function sign(fields: Record<string, string | number | boolean | null | undefined>, appSecret: string): string {
  const text = Object.keys(fields)
    .filter((name) => name !== 'signature' && fields[name] !== undefined && fields[name] !== null && fields[name] !== '')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) // ASCII order, case-sensitive
    .map((name) => \`\${name}=\${fields[name]}\`)
    .join('&');
  return createHash('md5').update(\`\${text}&appsecret=\${appSecret}\`, 'utf8').digest('hex').toUpperCase();
}`;

function tsObject(fields: ExampleFields): string {
  return Object.keys(fields)
    .map((name) => `  ${/^[A-Za-z_$][\w$]*$/.test(name) ? name : dq(name)}: ${name === 'appId' ? 'APP_ID' : dq(fields[name]!)},`)
    .join('\n');
}

function typescriptRequest(fields: ExampleFields, appId: string, baseUrl: string, path: string): string {
  return [
    `import { createHash } from 'node:crypto';`,
    '',
    `const BASE_URL = ${dq(baseUrl)};`,
    `const APP_ID = ${dq(appId)};`,
    `const APP_SECRET = ${dq(SECRET_PLACEHOLDER)}; // ${SECRET_NOTE}`,
    '',
    TS_SIGN,
    '',
    'const fields = {',
    tsObject(fields),
    '};',
    `const response = await fetch(\`\${BASE_URL}${path}\`, {`,
    `  method: 'POST',`,
    `  headers: { 'Content-Type': 'application/json' },`,
    '  body: JSON.stringify({ ...fields, signature: sign(fields, APP_SECRET) }),',
    '});',
    'const answer = await response.json(); // { code, message, data }: code 0 is success',
    'console.log(answer);',
  ].join('\n');
}

function typescriptNotification(appId: string): string {
  return [
    `import { createHash, timingSafeEqual } from 'node:crypto';`,
    `import http from 'node:http';`,
    '',
    `const APP_ID = ${dq(appId)};`,
    `const APP_SECRET = ${dq(SECRET_PLACEHOLDER)}; // ${SECRET_NOTE}`,
    '',
    TS_SIGN,
    '',
    '/** A notification is genuine when its signature matches the one computed over its own fields. */',
    'export function verifyNotification(form: Record<string, string>, appSecret: string): boolean {',
    `  const expected = Buffer.from(sign(form, appSecret));`,
    `  const given = Buffer.from((form.signature ?? '').toUpperCase());`,
    '  return given.length === expected.length && timingSafeEqual(given, expected);',
    '}',
    '',
    '// Your notifyUrl: a form POST (application/x-www-form-urlencoded).',
    'http',
    '  .createServer((req, res) => {',
    `    let body = '';`,
    `    req.on('data', (chunk) => (body += chunk));`,
    `    req.on('end', () => {`,
    '      const form = Object.fromEntries(new URLSearchParams(body));',
    '      if (form.appId !== APP_ID || !verifyNotification(form, APP_SECRET)) {',
    `        res.writeHead(400).end('bad signature'); // not acknowledged: the service retries`,
    '        return;',
    '      }',
    '      // Credit once per merchantOrderNo (the same notification can arrive again), then acknowledge.',
    `      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('success');`,
    '    });',
    '  })',
    '  .listen(8080);',
  ].join('\n');
}

// ---------- PHP (curl extension) ----------

const PHP_SIGN = `// The contract's signature: non-empty fields but signature, sorted by name (ASCII), name=value&…, + &appsecret=, MD5, uppercase hex.
function sign(array $fields, string $appSecret): string {
    unset($fields['signature']);
    $fields = array_filter($fields, fn ($value) => $value !== null && $value !== '');
    ksort($fields, SORT_STRING); // byte order, case-sensitive
    $pairs = [];
    foreach ($fields as $name => $value) {
        $pairs[] = $name . '=' . $value;
    }
    return strtoupper(md5(implode('&', $pairs) . '&appsecret=' . $appSecret));
}`;

function phpArray(fields: ExampleFields): string {
  return Object.keys(fields)
    .map((name) => `    ${phpString(name)} => ${name === 'appId' ? '$appId' : phpString(fields[name]!)},`)
    .join('\n');
}

function phpRequest(fields: ExampleFields, appId: string, baseUrl: string, path: string): string {
  return [
    '<?php',
    `$baseUrl = ${phpString(baseUrl)};`,
    `$appId = ${phpString(appId)};`,
    `$appSecret = ${phpString(SECRET_PLACEHOLDER)}; // ${SECRET_NOTE}`,
    '',
    PHP_SIGN,
    '',
    '$fields = [',
    phpArray(fields),
    '];',
    `$fields['signature'] = sign($fields, $appSecret);`,
    '',
    `$ch = curl_init($baseUrl . ${phpString(path)});`,
    'curl_setopt_array($ch, [',
    '    CURLOPT_POST => true,',
    `    CURLOPT_HTTPHEADER => ['Content-Type: application/json'],`,
    '    CURLOPT_POSTFIELDS => json_encode($fields, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES),',
    '    CURLOPT_RETURNTRANSFER => true,',
    ']);',
    '$answer = json_decode(curl_exec($ch), true); // [code, message, data]: code 0 is success',
    'var_dump($answer);',
  ].join('\n');
}

function phpNotification(appId: string): string {
  return [
    '<?php',
    '// Your notifyUrl: a form POST (application/x-www-form-urlencoded), so the fields are in $_POST.',
    `$appId = ${phpString(appId)};`,
    `$appSecret = ${phpString(SECRET_PLACEHOLDER)}; // ${SECRET_NOTE}`,
    '',
    PHP_SIGN,
    '',
    '$form = $_POST;',
    `if (($form['appId'] ?? '') !== $appId || !hash_equals(sign($form, $appSecret), strtoupper($form['signature'] ?? ''))) {`,
    '    http_response_code(400); // not acknowledged: the service retries',
    `    exit('bad signature');`,
    '}',
    '// Credit once per merchantOrderNo (the same notification can arrive again), then acknowledge.',
    `echo 'success';`,
  ].join('\n');
}

// ---------- Python (standard library) ----------

const PY_SIGN = `def sign(fields: dict, app_secret: str) -> str:
    """The contract's signature: non-empty fields but signature, sorted by name (ASCII), name=value&..., + &appsecret=, MD5, uppercase hex."""
    names = sorted(name for name, value in fields.items() if name != "signature" and value is not None and value != "")
    text = "&".join(f"{name}={fields[name]}" for name in names) + "&appsecret=" + app_secret
    return hashlib.md5(text.encode("utf-8")).hexdigest().upper()`;

function pythonDict(fields: ExampleFields): string {
  return Object.keys(fields)
    .map((name) => `    ${dq(name)}: ${name === 'appId' ? 'APP_ID' : dq(fields[name]!)},`)
    .join('\n');
}

function pythonRequest(fields: ExampleFields, appId: string, baseUrl: string, path: string): string {
  return [
    'import hashlib',
    'import json',
    'import urllib.request',
    '',
    `BASE_URL = ${dq(baseUrl)}`,
    `APP_ID = ${dq(appId)}`,
    `APP_SECRET = ${dq(SECRET_PLACEHOLDER)}  # ${SECRET_NOTE}`,
    '',
    '',
    PY_SIGN,
    '',
    '',
    'fields = {',
    pythonDict(fields),
    '}',
    'fields["signature"] = sign(fields, APP_SECRET)',
    'request = urllib.request.Request(',
    `    BASE_URL + ${dq(path)},`,
    '    data=json.dumps(fields).encode("utf-8"),',
    '    headers={"Content-Type": "application/json"},',
    '    method="POST",',
    ')',
    'with urllib.request.urlopen(request) as response:',
    '    answer = json.load(response)  # {code, message, data}: code 0 is success',
    'print(answer)',
  ].join('\n');
}

function pythonNotification(appId: string): string {
  return [
    'import hashlib',
    'import hmac',
    'from http.server import BaseHTTPRequestHandler, HTTPServer',
    'from urllib.parse import parse_qsl',
    '',
    `APP_ID = ${dq(appId)}`,
    `APP_SECRET = ${dq(SECRET_PLACEHOLDER)}  # ${SECRET_NOTE}`,
    '',
    '',
    PY_SIGN,
    '',
    '',
    'def verify_notification(form: dict, app_secret: str) -> bool:',
    '    return hmac.compare_digest(sign(form, app_secret), form.get("signature", "").upper())',
    '',
    '',
    'class Notify(BaseHTTPRequestHandler):  # your notifyUrl: a form POST',
    '    def do_POST(self):',
    '        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode("utf-8")',
    '        form = dict(parse_qsl(body, keep_blank_values=True))',
    '        if form.get("appId") != APP_ID or not verify_notification(form, APP_SECRET):',
    '            self.send_response(400)  # not acknowledged: the service retries',
    '            self.end_headers()',
    '            return',
    '        # Credit once per merchantOrderNo (the same notification can arrive again), then acknowledge.',
    '        self.send_response(200)',
    '        self.end_headers()',
    '        self.wfile.write(b"success")',
    '',
    '',
    'HTTPServer(("", 8080), Notify).serve_forever()',
  ].join('\n');
}

// ---------- Java (11+: java.net.http) ----------

const JAVA_SIGN = `    /** The contract's signature: non-empty fields but signature, sorted by name (ASCII), name=value&..., + &appsecret=, MD5, uppercase hex. */
    static String sign(Map<String, String> fields, String appSecret) throws Exception {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, String> field : new TreeMap<>(fields).entrySet()) { // TreeMap: ASCII order, case-sensitive
            String value = field.getValue();
            if (field.getKey().equals("signature") || value == null || value.isEmpty()) continue;
            if (text.length() > 0) text.append('&');
            text.append(field.getKey()).append('=').append(value);
        }
        text.append("&appsecret=").append(appSecret);
        byte[] digest = MessageDigest.getInstance("MD5").digest(text.toString().getBytes(StandardCharsets.UTF_8));
        StringBuilder hex = new StringBuilder();
        for (byte b : digest) hex.append(String.format("%02X", b));
        return hex.toString();
    }`;

function javaPuts(fields: ExampleFields): string {
  return Object.keys(fields)
    .map((name) => `        fields.put(${dq(name)}, ${name === 'appId' ? 'APP_ID' : dq(fields[name]!)});`)
    .join('\n');
}

function javaRequest(fields: ExampleFields, appId: string, baseUrl: string, path: string, className: string): string {
  return [
    'import java.net.URI;',
    'import java.net.http.HttpClient;',
    'import java.net.http.HttpRequest;',
    'import java.net.http.HttpResponse;',
    'import java.nio.charset.StandardCharsets;',
    'import java.security.MessageDigest;',
    'import java.util.LinkedHashMap;',
    'import java.util.Map;',
    'import java.util.TreeMap;',
    '',
    `public class ${className} {`,
    `    static final String BASE_URL = ${dq(baseUrl)};`,
    `    static final String APP_ID = ${dq(appId)};`,
    `    static final String APP_SECRET = ${dq(SECRET_PLACEHOLDER)}; // ${SECRET_NOTE}`,
    '',
    JAVA_SIGN,
    '',
    '    static String json(Map<String, String> fields) {',
    '        StringBuilder out = new StringBuilder("{");',
    '        for (Map.Entry<String, String> field : fields.entrySet()) {',
    '            if (out.length() > 1) out.append(\',\');',
    '            out.append(\'"\').append(field.getKey()).append("\\":\\"").append(field.getValue().replace("\\\\", "\\\\\\\\").replace("\\"", "\\\\\\"")).append(\'"\');',
    '        }',
    '        return out.append(\'}\').toString();',
    '    }',
    '',
    '    public static void main(String[] args) throws Exception {',
    '        Map<String, String> fields = new LinkedHashMap<>();',
    javaPuts(fields),
    '        fields.put("signature", sign(fields, APP_SECRET));',
    `        HttpRequest request = HttpRequest.newBuilder(URI.create(BASE_URL + ${dq(path)}))`,
    '            .header("Content-Type", "application/json")',
    '            .POST(HttpRequest.BodyPublishers.ofString(json(fields)))',
    '            .build();',
    '        // {code, message, data}: code 0 is success',
    '        System.out.println(HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body());',
    '    }',
    '}',
  ].join('\n');
}

function javaNotification(appId: string): string {
  return [
    'import com.sun.net.httpserver.HttpServer;',
    'import java.net.InetSocketAddress;',
    'import java.net.URLDecoder;',
    'import java.nio.charset.StandardCharsets;',
    'import java.security.MessageDigest;',
    'import java.util.HashMap;',
    'import java.util.Map;',
    'import java.util.TreeMap;',
    '',
    'public class NotifyReceiver {',
    `    static final String APP_ID = ${dq(appId)};`,
    `    static final String APP_SECRET = ${dq(SECRET_PLACEHOLDER)}; // ${SECRET_NOTE}`,
    '',
    JAVA_SIGN,
    '',
    '    static boolean verifyNotification(Map<String, String> form, String appSecret) throws Exception {',
    '        String given = form.getOrDefault("signature", "").toUpperCase();',
    '        return MessageDigest.isEqual(sign(form, appSecret).getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));',
    '    }',
    '',
    '    public static void main(String[] args) throws Exception {',
    '        HttpServer server = HttpServer.create(new InetSocketAddress(8080), 0);',
    '        server.createContext("/notify", exchange -> { // your notifyUrl: a form POST',
    '            Map<String, String> form = new HashMap<>();',
    '            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);',
    '            for (String pair : body.split("&")) {',
    '                if (pair.isEmpty()) continue;',
    '                int at = pair.indexOf(\'=\');',
    '                String name = URLDecoder.decode(at < 0 ? pair : pair.substring(0, at), StandardCharsets.UTF_8);',
    '                form.put(name, at < 0 ? "" : URLDecoder.decode(pair.substring(at + 1), StandardCharsets.UTF_8));',
    '            }',
    '            boolean genuine;',
    '            try {',
    '                genuine = APP_ID.equals(form.get("appId")) && verifyNotification(form, APP_SECRET);',
    '            } catch (Exception e) {',
    '                genuine = false;',
    '            }',
    '            // Credit once per merchantOrderNo (the same notification can arrive again), then acknowledge.',
    '            byte[] answer = (genuine ? "success" : "bad signature").getBytes(StandardCharsets.UTF_8);',
    '            exchange.sendResponseHeaders(genuine ? 200 : 400, answer.length); // 400: not acknowledged, the service retries',
    '            exchange.getResponseBody().write(answer);',
    '            exchange.close();',
    '        });',
    '        server.start();',
    '    }',
    '}',
  ].join('\n');
}

/**
 * The code examples for one merchant, on one channel's example order (default: the registry's first channel).
 * `baseUrl` is the service's public base URL.
 */
export function buildApiExamples({ appId, baseUrl, channel = CHANNELS[0]! }: { appId: string; baseUrl: string; channel?: Channel }): Record<'submit' | 'query' | 'close' | 'notification', CodeExample[]> {
  const submit = channel.examples.submit(appId);
  const query = channel.examples.query(appId);
  const notification = channel.examples.notification(appId);
  const label = (language: ExampleLanguage) => EXAMPLE_LANGUAGES.find((entry) => entry.language === language)!.label;
  const make = (operation: ExampleOperation, language: ExampleLanguage, code: string): CodeExample => ({ operation, language, label: label(language), code });
  const requests = (operation: ExampleOperation, fields: ExampleFields, path: string, javaClass: string): CodeExample[] => [
    make(operation, 'curl', curlRequest(fields, appId, baseUrl, path)),
    make(operation, 'typescript', typescriptRequest(fields, appId, baseUrl, path)),
    make(operation, 'php', phpRequest(fields, appId, baseUrl, path)),
    make(operation, 'python', pythonRequest(fields, appId, baseUrl, path)),
    make(operation, 'java', javaRequest(fields, appId, baseUrl, path, javaClass)),
  ];
  return {
    submit: requests('submit', submit, SUBMIT_PATH, 'SubmitOrder'),
    query: requests('query', query, QUERY_PATH, 'QueryOrder'),
    // The close takes the query's fields (the order by merchantOrderNo, payType when sent).
    close: requests('close', query, CLOSE_PATH, 'CloseOrder'),
    notification: [
      make('notification', 'curl', curlNotification(notification, appId)),
      make('notification', 'typescript', typescriptNotification(appId)),
      make('notification', 'php', phpNotification(appId)),
      make('notification', 'python', pythonNotification(appId)),
      make('notification', 'java', javaNotification(appId)),
    ],
  };
}

/** The refund submit and query in the five languages, signed per the contract like every request. */
export function buildRefundExamples({ appId, baseUrl }: { appId: string; baseUrl: string }): Record<'refund' | 'refundQuery', CodeExample[]> {
  const label = (language: ExampleLanguage) => EXAMPLE_LANGUAGES.find((entry) => entry.language === language)!.label;
  const examplesOf = (operation: 'refund' | 'refundQuery', fields: ExampleFields, path: string, javaClass: string): CodeExample[] => [
    { operation, language: 'curl', label: label('curl'), code: curlRequest(fields, appId, baseUrl, path) },
    { operation, language: 'typescript', label: label('typescript'), code: typescriptRequest(fields, appId, baseUrl, path) },
    { operation, language: 'php', label: label('php'), code: phpRequest(fields, appId, baseUrl, path) },
    { operation, language: 'python', label: label('python'), code: pythonRequest(fields, appId, baseUrl, path) },
    { operation, language: 'java', label: label('java'), code: javaRequest(fields, appId, baseUrl, path, javaClass) },
  ];
  return {
    refund: examplesOf('refund', refundSubmitExample(appId), REFUND_SUBMIT_PATH, 'SubmitRefund'),
    refundQuery: examplesOf('refundQuery', refundQueryExample(appId), REFUND_QUERY_PATH, 'QueryRefund'),
  };
}

/** The example notification (signed with the placeholder secret), as the page shows the form the service sends. */
export function exampleNotificationForm(appId: string, channel: Channel = CHANNELS[0]!): ExampleFields {
  return signedExample(channel.examples.notification(appId));
}

/** One channel's signed example request bodies and notification, for the merchant (placeholder secret). */
export interface ChannelExample {
  /** The payType. */
  channel: string;
  label: string;
  submit: ExampleFields;
  query: ExampleFields;
  notification: ExampleFields;
}

/** A signed submit, query and notification for every channel of the registry, in its order. */
export function channelExamples(appId: string): ChannelExample[] {
  return CHANNELS.map((channel) => ({
    channel: channel.name,
    label: channel.label,
    submit: signedExample(channel.examples.submit(appId)),
    query: signedExample(channel.examples.query(appId)),
    notification: signedExample(channel.examples.notification(appId)),
  }));
}
