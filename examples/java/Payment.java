// Sign and submit an order, query, close or refund it, receive the notifications. Java 17, JDK only, one source file.
//
//   export BASE_URL=http://localhost:3000 APP_ID=mch_YOUR_APP_ID APP_SECRET=...
//   java Payment.java submit USDT ORDER-1 10.50 http://127.0.0.1:8080/notify   # or ALIPAY, WECHAT, YHT
//   java Payment.java query USDT ORDER-1
//   java Payment.java close ORDER-1   # a pending order, on any channel
//   java Payment.java refund ORDER-3 REFUND-1 5.00 http://127.0.0.1:8080/notify   # part of a paid ALIPAY or WECHAT order
//   java Payment.java refund-query REFUND-1
//   java Payment.java receive         # your notifyUrl, on NOTIFY_PORT (8080); paid orders go to PAID_ORDERS_FILE,
//                                     # succeeded refunds to REFUNDS_FILE, abnormal ones to ABNORMAL_REFUNDS_FILE
//   java Payment.java sign < fields   # one form-encoded set of fields a line -> its signature
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public class Payment {
    static final String BASE_URL = env("BASE_URL", "http://localhost:3000");
    static final String APP_ID = env("APP_ID", "mch_YOUR_APP_ID");
    static final String APP_SECRET = env("APP_SECRET", ""); // Interface keys in the back office: keep it on your server, never in code
    static final int NOTIFY_PORT = Integer.parseInt(env("NOTIFY_PORT", "8080"));
    static final Path PAID_ORDERS_FILE = Path.of(env("PAID_ORDERS_FILE", "paid-orders.txt"));
    static final Path REFUNDS_FILE = Path.of(env("REFUNDS_FILE", "refunds.txt"));
    static final Path ABNORMAL_REFUNDS_FILE = Path.of(env("ABNORMAL_REFUNDS_FILE", "abnormal-refunds.txt"));

    static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value != null ? value : fallback;
    }

    /** Non-empty fields but signature, sorted by name (ASCII), name=value joined by &, + &appsecret=..., MD5, upper-case hex. */
    static String sign(Map<String, String> fields, String appSecret) {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, String> field : new TreeMap<>(fields).entrySet()) { // TreeMap: ASCII order for ASCII names
            String value = field.getValue();
            if (field.getKey().equals("signature") || value == null || value.isEmpty()) continue;
            if (text.length() > 0) text.append('&');
            text.append(field.getKey()).append('=').append(value);
        }
        text.append("&appsecret=").append(appSecret);
        try {
            byte[] digest = MessageDigest.getInstance("MD5").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().withUpperCase().formatHex(digest);
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible); // every JDK has MD5
        }
    }

    /** What each channel needs besides the common fields; each names its amount differently. */
    static Map<String, String> channelFields(String channel, String amount) {
        return switch (channel) {
            case "USDT" -> Map.of("payType", "USDT", "pay_usdt", amount, "chainType", "1");
            case "ALIPAY" -> Map.of("payType", "ALIPAY", "payMethod", "web", "amount", amount, "redirectUrl", "https://merchant.example/return");
            case "WECHAT" -> Map.of("payType", "WECHAT", "payMethod", "native", "amount", amount);
            case "YHT" -> Map.of("payType", "YHT", "channel", "YHT", "payMethod", "aliPay", "payMoney", amount);
            default -> throw new IllegalArgumentException("unknown channel " + channel);
        };
    }

    /** The JDK has no JSON library: flat string fields are simple to write by hand. */
    static String json(Map<String, String> fields) {
        StringBuilder out = new StringBuilder("{");
        for (Map.Entry<String, String> field : fields.entrySet()) {
            if (out.length() > 1) out.append(',');
            out.append(quote(field.getKey())).append(':').append(quote(field.getValue()));
        }
        return out.append('}').toString();
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append('"').toString();
    }

    /** Signs the fields, sends them as JSON, returns the envelope {code, message, data} as text: code 0 is success. */
    static String post(String path, Map<String, String> fields) throws IOException, InterruptedException {
        fields.put("signature", sign(fields, APP_SECRET));
        HttpRequest request = HttpRequest.newBuilder(URI.create(BASE_URL + path))
            .timeout(Duration.ofSeconds(15))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json(fields), StandardCharsets.UTF_8))
            .build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)).body();
    }

    static String submit(String channel, String merchantOrderNo, String amount, String notifyUrl) throws IOException, InterruptedException {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("appId", APP_ID);
        fields.put("merchantOrderNo", merchantOrderNo);
        fields.put("notifyUrl", notifyUrl);
        fields.put("productName", "VIP 会员");
        fields.put("attach", "user=42");
        fields.putAll(channelFields(channel, amount));
        return post("/v1/api/open/order/submit", fields);
    }

    static String query(String channel, String merchantOrderNo) throws IOException, InterruptedException {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("appId", APP_ID);
        fields.put("merchantOrderNo", merchantOrderNo);
        fields.put("payType", channel);
        return post("/v1/api/open/order/query", fields);
    }

    static String close(String merchantOrderNo) throws IOException, InterruptedException {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("appId", APP_ID);
        fields.put("merchantOrderNo", merchantOrderNo);
        return post("/v1/api/open/order/close", fields);
    }

    /** merchantRefundNo is the idempotency key: send the same fields again after no answer, never a new number. */
    static String refund(String merchantOrderNo, String merchantRefundNo, String refundAmount, String notifyUrl) throws IOException, InterruptedException {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("appId", APP_ID);
        fields.put("merchantOrderNo", merchantOrderNo);
        fields.put("merchantRefundNo", merchantRefundNo);
        fields.put("refundAmount", refundAmount);
        fields.put("reason", "goods returned");
        if (notifyUrl != null) fields.put("notifyUrl", notifyUrl); // without it, no refund notice: query the refund instead
        return post("/v1/api/open/refund/submit", fields);
    }

    static String refundQuery(String merchantRefundNo) throws IOException, InterruptedException {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("appId", APP_ID);
        fields.put("merchantRefundNo", merchantRefundNo);
        return post("/v1/api/open/refund/query", fields);
    }

    /** A form body (a=1&b=2) as fields; names and values are URL-encoded UTF-8. */
    static Map<String, String> parseForm(String body) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) continue;
            int equals = pair.indexOf('=');
            String name = equals < 0 ? pair : pair.substring(0, equals);
            String value = equals < 0 ? "" : pair.substring(equals + 1);
            fields.putIfAbsent(URLDecoder.decode(name, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
        return fields;
    }

    /** Your own work, done before answering success: here a file stands in for your database. Idempotent, because the
     *  same notification can arrive more than once. */
    static synchronized void recordOnce(Path file, String number) throws IOException {
        List<String> recorded = Files.exists(file) ? Files.readAllLines(file) : List.of();
        if (recorded.contains(number)) return;
        Files.writeString(file, number + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    static void receiveNotification(HttpExchange exchange) throws IOException {
        Map<String, String> form = parseForm(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        byte[] expected = sign(form, APP_SECRET).getBytes(StandardCharsets.UTF_8);
        byte[] given = form.getOrDefault("signature", "").toUpperCase().getBytes(StandardCharsets.UTF_8);
        if (!APP_ID.equals(form.get("appId")) || !MessageDigest.isEqual(expected, given)) {
            answer(exchange, 400, "bad signature"); // anything but success: not acknowledged
            return;
        }
        try {
            // Only PAID is a payment: a refund notice (notifyType refund) or a close notice (CLOSED, EXPIRED) is not.
            if ("refund".equals(form.get("notifyType"))) {
                if ("succeeded".equals(form.get("status"))) recordOnce(REFUNDS_FILE, form.get("merchantRefundNo"));
                // an abnormal refund (WeChat Pay ABNORMAL): the money left your balance, the payer could not take it; apply the remedy in the portal, never refund it again
                else if ("abnormal".equals(form.get("status"))) recordOnce(ABNORMAL_REFUNDS_FILE, form.get("merchantRefundNo"));
            } else if ("PAID".equals(form.get("status"))) {
                recordOnce(PAID_ORDERS_FILE, form.get("merchantOrderNo"));
            }
        } catch (IOException notRecorded) {
            answer(exchange, 500, "try again"); // not recorded: the service sends it again
            return;
        }
        answer(exchange, 200, "success");
    }

    static void answer(HttpExchange exchange, int status, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    public static void main(String[] args) throws Exception {
        String command = args.length > 0 ? args[0] : "";
        switch (command) {
            case "submit", "query", "close", "refund", "refund-query" -> {
                String answer = switch (command) {
                    case "submit" -> submit(args[1], args[2], args[3], args[4]);
                    case "query" -> query(args[1], args[2]);
                    case "close" -> close(args[1]);
                    case "refund" -> refund(args[1], args[2], args[3], args.length > 4 ? args[4] : null);
                    default -> refundQuery(args[1]);
                };
                System.out.println(answer);
                // Without a JSON library, the envelope's code is read from its text: the service writes it first.
                if (!answer.matches("(?s)\\{\\s*\"code\"\\s*:\\s*0\\s*,.*")) System.exit(1);
            }
            case "receive" -> {
                HttpServer server = HttpServer.create(new InetSocketAddress(NOTIFY_PORT), 0);
                server.createContext("/", Payment::receiveNotification);
                server.start();
            }
            case "sign" -> {
                BufferedReader lines = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                for (String line; (line = lines.readLine()) != null; ) System.out.println(sign(parseForm(line), APP_SECRET));
            }
            default -> {
                System.err.println("usage: java Payment.java submit|query|close|refund|refund-query|receive|sign ...");
                System.exit(2);
            }
        }
    }
}
