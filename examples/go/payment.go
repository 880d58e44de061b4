// Sign and submit an order, query, close or refund it, receive the notifications. Go, standard library only.
//
//	export BASE_URL=http://localhost:3000 APP_ID=mch_YOUR_APP_ID APP_SECRET=...
//	go run payment.go submit USDT ORDER-1 10.50 http://127.0.0.1:8080/notify   # or ALIPAY, WECHAT, YHT
//	go run payment.go query USDT ORDER-1
//	go run payment.go close ORDER-1   # a pending order, on any channel
//	go run payment.go refund ORDER-3 REFUND-1 5.00 http://127.0.0.1:8080/notify   # part of a paid ALIPAY or WECHAT order
//	go run payment.go refund-query REFUND-1
//	go run payment.go receive         # your notifyUrl, on NOTIFY_PORT (8080); paid orders go to PAID_ORDERS_FILE,
//	                                  # succeeded refunds to REFUNDS_FILE, abnormal ones to ABNORMAL_REFUNDS_FILE
//	go run payment.go sign < fields   # one form-encoded set of fields a line -> its signature
package main

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"
)

var (
	baseURL        = env("BASE_URL", "http://localhost:3000")
	appID          = env("APP_ID", "mch_YOUR_APP_ID")
	appSecret      = env("APP_SECRET", "") // Interface keys in the back office: keep it on your server, never in code
	notifyPort     = env("NOTIFY_PORT", "8080")
	paidOrdersFile = env("PAID_ORDERS_FILE", "paid-orders.txt")
	refundsFile    = env("REFUNDS_FILE", "refunds.txt")
	abnormalFile   = env("ABNORMAL_REFUNDS_FILE", "abnormal-refunds.txt")
)

func env(name, fallback string) string {
	if value, ok := os.LookupEnv(name); ok {
		return value
	}
	return fallback
}

// channelFields is what each channel needs besides the common fields; each names its amount differently.
func channelFields(channel, amount string) map[string]string {
	switch channel {
	case "USDT":
		return map[string]string{"payType": "USDT", "pay_usdt": amount, "chainType": "1"}
	case "ALIPAY":
		return map[string]string{"payType": "ALIPAY", "payMethod": "web", "amount": amount, "redirectUrl": "https://merchant.example/return"}
	case "WECHAT":
		return map[string]string{"payType": "WECHAT", "payMethod": "native", "amount": amount}
	case "YHT":
		return map[string]string{"payType": "YHT", "channel": "YHT", "payMethod": "aliPay", "payMoney": amount}
	}
	panic("unknown channel " + channel)
}

// sign: non-empty fields but signature, sorted by name (ASCII), name=value joined by &, + &appsecret=..., MD5, upper-case hex.
func sign(fields map[string]string, secret string) string {
	names := make([]string, 0, len(fields))
	for name, value := range fields {
		if name != "signature" && value != "" {
			names = append(names, name)
		}
	}
	sort.Strings(names) // byte order
	pairs := make([]string, len(names))
	for i, name := range names {
		pairs[i] = name + "=" + fields[name]
	}
	sum := md5.Sum([]byte(strings.Join(pairs, "&") + "&appsecret=" + secret))
	return strings.ToUpper(hex.EncodeToString(sum[:]))
}

// post signs the fields, sends them as JSON and returns the envelope {code, message, data}: code 0 is success.
func post(path string, fields map[string]string) (map[string]any, error) {
	fields["signature"] = sign(fields, appSecret)
	body, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	client := http.Client{Timeout: 15 * time.Second}
	response, err := client.Post(baseURL+path, "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer response.Body.Close()
	var answer map[string]any
	return answer, json.NewDecoder(response.Body).Decode(&answer)
}

func submit(channel, merchantOrderNo, amount, notifyURL string) (map[string]any, error) {
	fields := map[string]string{"appId": appID, "merchantOrderNo": merchantOrderNo, "notifyUrl": notifyURL, "productName": "VIP 会员", "attach": "user=42"}
	for name, value := range channelFields(channel, amount) {
		fields[name] = value
	}
	return post("/v1/api/open/order/submit", fields)
}

func query(channel, merchantOrderNo string) (map[string]any, error) {
	return post("/v1/api/open/order/query", map[string]string{"appId": appID, "merchantOrderNo": merchantOrderNo, "payType": channel})
}

func closeOrder(merchantOrderNo string) (map[string]any, error) {
	return post("/v1/api/open/order/close", map[string]string{"appId": appID, "merchantOrderNo": merchantOrderNo})
}

// refund: merchantRefundNo is the idempotency key; send the same fields again after no answer, never a new number.
func refund(merchantOrderNo, merchantRefundNo, refundAmount, notifyURL string) (map[string]any, error) {
	fields := map[string]string{"appId": appID, "merchantOrderNo": merchantOrderNo, "merchantRefundNo": merchantRefundNo, "refundAmount": refundAmount, "reason": "goods returned"}
	if notifyURL != "" { // without it, no refund notice: query the refund instead
		fields["notifyUrl"] = notifyURL
	}
	return post("/v1/api/open/refund/submit", fields)
}

func refundQuery(merchantRefundNo string) (map[string]any, error) {
	return post("/v1/api/open/refund/query", map[string]string{"appId": appID, "merchantRefundNo": merchantRefundNo})
}

// recordOnce is your own work, done before answering success: here a file stands in for your database. Idempotent,
// because the same notification can arrive more than once.
func recordOnce(fileName, number string) error {
	recorded, err := os.ReadFile(fileName)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	for _, line := range strings.Split(string(recorded), "\n") {
		if line == number {
			return nil
		}
	}
	file, err := os.OpenFile(fileName, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer file.Close()
	_, err = file.WriteString(number + "\n")
	return err
}

// firstValues keeps one value per name, as the service sends each field once.
func firstValues(values url.Values) map[string]string {
	fields := make(map[string]string, len(values))
	for name := range values {
		fields[name] = values.Get(name)
	}
	return fields
}

func receiveNotification(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	form := firstValues(r.PostForm)
	given := strings.ToUpper(form["signature"])
	if form["appId"] != appID || subtle.ConstantTimeCompare([]byte(sign(form, appSecret)), []byte(given)) != 1 {
		http.Error(w, "bad signature", http.StatusBadRequest) // anything but success: not acknowledged
		return
	}
	// Only PAID is a payment: a refund notice (notifyType refund) or a close notice (CLOSED, EXPIRED) is not.
	var err error
	if form["notifyType"] == "refund" {
		switch form["status"] {
		case "succeeded":
			err = recordOnce(refundsFile, form["merchantRefundNo"])
		case "abnormal": // an abnormal refund (WeChat Pay ABNORMAL): the money left your balance, the payer could not take it; apply the remedy in the portal, never refund it again
			err = recordOnce(abnormalFile, form["merchantRefundNo"])
		}
	} else if form["status"] == "PAID" {
		err = recordOnce(paidOrdersFile, form["merchantOrderNo"])
	}
	if err != nil {
		http.Error(w, "try again", http.StatusInternalServerError) // not recorded: the service sends it again
		return
	}
	fmt.Fprint(w, "success")
}

func main() {
	if len(os.Args) < 2 {
		os.Args = append(os.Args, "help")
	}
	var answer map[string]any
	var err error
	switch args := os.Args[2:]; os.Args[1] {
	case "submit":
		answer, err = submit(args[0], args[1], args[2], args[3])
	case "query":
		answer, err = query(args[0], args[1])
	case "close":
		answer, err = closeOrder(args[0])
	case "refund":
		notifyURL := ""
		if len(args) > 3 {
			notifyURL = args[3]
		}
		answer, err = refund(args[0], args[1], args[2], notifyURL)
	case "refund-query":
		answer, err = refundQuery(args[0])
	case "receive":
		http.HandleFunc("/", receiveNotification)
		err = http.ListenAndServe(":"+notifyPort, nil)
	case "sign":
		lines := bufio.NewScanner(os.Stdin)
		lines.Buffer(make([]byte, 0, 64*1024), 1024*1024)
		for lines.Scan() {
			values, parseErr := url.ParseQuery(lines.Text())
			if parseErr != nil {
				err = parseErr
				break
			}
			fmt.Println(sign(firstValues(values), appSecret))
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: go run payment.go submit|query|close|refund|refund-query|receive|sign ...")
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if answer != nil {
		out, _ := json.Marshal(answer)
		fmt.Println(string(out))
		if answer["code"] != float64(0) {
			os.Exit(1)
		}
	}
}
