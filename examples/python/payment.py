#!/usr/bin/env python3
"""Sign and submit an order, query, close or refund it, receive the notifications. Python 3, standard library only.

  export BASE_URL=http://localhost:3000 APP_ID=mch_YOUR_APP_ID APP_SECRET=...
  python3 payment.py submit USDT ORDER-1 10.50 http://127.0.0.1:8080/notify   # or ALIPAY, WECHAT, YHT
  python3 payment.py query USDT ORDER-1
  python3 payment.py close ORDER-1    # a pending order, on any channel
  python3 payment.py refund ORDER-3 REFUND-1 5.00 http://127.0.0.1:8080/notify   # part of a paid ALIPAY or WECHAT order
  python3 payment.py refund-query REFUND-1
  python3 payment.py receive          # your notifyUrl, on NOTIFY_PORT (8080); paid orders go to PAID_ORDERS_FILE,
                                      # succeeded refunds to REFUNDS_FILE, abnormal ones to ABNORMAL_REFUNDS_FILE
  python3 payment.py sign < fields    # one form-encoded set of fields a line -> its signature
"""
import hashlib
import hmac
import json
import os
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qsl

BASE_URL = os.environ.get("BASE_URL", "http://localhost:3000")
APP_ID = os.environ.get("APP_ID", "mch_YOUR_APP_ID")
APP_SECRET = os.environ.get("APP_SECRET", "")  # Interface keys in the back office: keep it on your server, never in code
NOTIFY_PORT = int(os.environ.get("NOTIFY_PORT", "8080"))
PAID_ORDERS_FILE = os.environ.get("PAID_ORDERS_FILE", "paid-orders.txt")
REFUNDS_FILE = os.environ.get("REFUNDS_FILE", "refunds.txt")
ABNORMAL_REFUNDS_FILE = os.environ.get("ABNORMAL_REFUNDS_FILE", "abnormal-refunds.txt")

# What each channel needs besides the common fields; each names its amount differently.
CHANNEL_FIELDS = {
    "USDT": lambda amount: {"payType": "USDT", "pay_usdt": amount, "chainType": "1"},
    "ALIPAY": lambda amount: {"payType": "ALIPAY", "payMethod": "web", "amount": amount, "redirectUrl": "https://merchant.example/return"},
    "WECHAT": lambda amount: {"payType": "WECHAT", "payMethod": "native", "amount": amount},
    "YHT": lambda amount: {"payType": "YHT", "channel": "YHT", "payMethod": "aliPay", "payMoney": amount},
}


def sign(fields, app_secret):
    """Non-empty fields but signature, sorted by name (ASCII), name=value joined by &, + &appsecret=..., MD5, upper-case hex."""
    # "0" is a value: only None and "" count as empty.
    names = sorted(name for name, value in fields.items() if name != "signature" and value is not None and value != "")
    text = "&".join(f"{name}={fields[name]}" for name in names) + "&appsecret=" + app_secret
    return hashlib.md5(text.encode("utf-8")).hexdigest().upper()


def post(path, fields):
    body = json.dumps({**fields, "signature": sign(fields, APP_SECRET)}, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(BASE_URL + path, data=body, headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=15) as response:
        return json.load(response)  # {code, message, data}: code 0 is success


def submit(channel, merchant_order_no, amount, notify_url):
    fields = {"appId": APP_ID, "merchantOrderNo": merchant_order_no, "notifyUrl": notify_url, "productName": "VIP 会员", "attach": "user=42"}
    return post("/v1/api/open/order/submit", {**fields, **CHANNEL_FIELDS[channel](amount)})


def query(channel, merchant_order_no):
    return post("/v1/api/open/order/query", {"appId": APP_ID, "merchantOrderNo": merchant_order_no, "payType": channel})


def close(merchant_order_no):
    return post("/v1/api/open/order/close", {"appId": APP_ID, "merchantOrderNo": merchant_order_no})


def refund(merchant_order_no, merchant_refund_no, refund_amount, notify_url=""):
    """merchant_refund_no is the idempotency key: send the same fields again after no answer, never a new number."""
    fields = {"appId": APP_ID, "merchantOrderNo": merchant_order_no, "merchantRefundNo": merchant_refund_no, "refundAmount": refund_amount, "reason": "goods returned"}
    if notify_url:  # without it, no refund notice: query the refund instead
        fields["notifyUrl"] = notify_url
    return post("/v1/api/open/refund/submit", fields)


def refund_query(merchant_refund_no):
    return post("/v1/api/open/refund/query", {"appId": APP_ID, "merchantRefundNo": merchant_refund_no})


def record_once(file_name, number):
    """Your own work, done before answering success: here a file stands in for your database. Idempotent, because
    the same notification can arrive more than once."""
    try:
        with open(file_name, encoding="utf-8") as recorded:
            if number in recorded.read().splitlines():
                return
    except FileNotFoundError:
        pass
    with open(file_name, "a", encoding="utf-8") as recorded:
        recorded.write(number + "\n")


class NotificationHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode("utf-8")
        form = dict(parse_qsl(body, keep_blank_values=True))
        expected = sign(form, APP_SECRET).encode()
        if form.get("appId") != APP_ID or not hmac.compare_digest(expected, form.get("signature", "").upper().encode()):
            return self.answer(400, "bad signature")  # anything but success: not acknowledged
        # Only PAID is a payment: a refund notice (notifyType refund) or a close notice (CLOSED, EXPIRED) is not.
        # Each raises on failure: no success, so the service sends it again.
        if form.get("notifyType") == "refund":
            if form.get("status") == "succeeded":
                record_once(REFUNDS_FILE, form["merchantRefundNo"])
            elif form.get("status") == "abnormal":  # an abnormal refund (WeChat Pay ABNORMAL): the money left your balance, the payer could not take it; apply the remedy in the portal, never refund it again
                record_once(ABNORMAL_REFUNDS_FILE, form["merchantRefundNo"])
        elif form.get("status") == "PAID":
            record_once(PAID_ORDERS_FILE, form["merchantOrderNo"])
        self.answer(200, "success")

    def answer(self, status, text):
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.wfile.write(text.encode())


def main(command, *args):
    calls = {"submit": submit, "query": query, "close": close, "refund": refund, "refund-query": refund_query}
    if command in calls:
        answer = calls[command](*args)
    elif command == "receive":
        HTTPServer(("", NOTIFY_PORT), NotificationHandler).serve_forever()
    elif command == "sign":
        for line in sys.stdin:
            print(sign(dict(parse_qsl(line.rstrip("\n"), keep_blank_values=True)), APP_SECRET))
        return
    else:
        sys.exit(__doc__)
    print(json.dumps(answer, ensure_ascii=False))
    sys.exit(0 if answer["code"] == 0 else 1)


if __name__ == "__main__":
    main(*(sys.argv[1:] or ["help"]))
