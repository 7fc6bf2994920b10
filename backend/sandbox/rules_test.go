package sandbox

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
)

func TestTestCardsFirstStep(t *testing.T) {
	srv := start(t, Options{})
	c := newClient(t, srv)
	cases := []struct {
		pan, status, result, confirmation string
	}{
		{"4111111111111111", "Settled", "Success", ""},
		{"5555555555554444", "Settled", "Success", ""},
		{"2200000000000004", "Settled", "Success", ""},
		{"4000000000000002", "Rejected", "TransactionDeclined", ""},
		{"4000000000009995", "Rejected", "InsufficientFunds", ""},
		{"4000000000000077", "Confirmation", "", "SmsOtp"},
		{"4000000000003063", "Confirmation", "", "ThreeDSChallenge"},
		{"4000000000003220", "Confirmation", "", "ThreeDSMethod"},
		{"4000000000000101", "Confirmation", "", "ThreeDSv1"},
		{"4000000000000259", "Pending", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.pan, func(t *testing.T) {
			p := c.pay(cardPayment("1001", tc.pan, "250.50"))
			assert.Equal(t, tc.status, p.Status)
			assert.Equal(t, tc.result, p.ResultCode)
			assert.Equal(t, "250.5", p.Amount.Value.String())
			if tc.confirmation == "" {
				assert.Nil(t, p.Confirmation)
			} else {
				require.NotNil(t, p.Confirmation)
				assert.Equal(t, tc.confirmation, p.Confirmation.Type)
			}
			assert.Equal(t, PaymentStatus(tc.status).Final(), p.Completed != "", "completed only when final")
			require.NotNil(t, p.PaymentData)
			assert.Equal(t, tc.pan[:6]+"******"+tc.pan[12:], p.PaymentData.PaymentInstrumentTitle)
			_, err := strconv.ParseInt(p.ID, 10, 64)
			assert.NoError(t, err, "ids are digits")
		})
	}
	// Dual mode: approved means Authorized, not Settled, and no completed.
	p := c.pay(cardPayment("1001", "4111111111111111", "100", dual))
	assert.Equal(t, "Authorized", p.Status)
	assert.Empty(t, p.Completed)
	// An expired card is declined, not refused.
	exp := c.pay(cardPayment("1001", "4111111111111111", "100", func(b map[string]any) {
		b["paymentData"].(map[string]any)["card"].(map[string]any)["expiry"] = "01/20"
	}))
	assert.Equal(t, "ExpiredAccount", exp.ResultCode)
	// Not a test card, or not a card number at all.
	c.wantError(400, "validation_error", "not one of the sandbox test cards", "POST", "/api/v2/payments", cardPayment("1001", "4242424242424242", "10"))
	c.wantError(400, "validation_error", "not a valid card number", "POST", "/api/v2/payments", cardPayment("1001", "4111111111111112", "10"))
}

func TestConfirmationFlows(t *testing.T) {
	srv := start(t, Options{})
	c := newClient(t, srv)
	complete := func(id string, body any) tPayment {
		var p tPayment
		c.want(200, "PUT", "/api/v2/payments/"+id+"/complete", body, &p)
		return p
	}
	t.Run("SmsOtp", func(t *testing.T) {
		p := c.pay(cardPayment("1002", "4000000000000077", "500"))
		assert.Equal(t, "+7 *** ***-**-67", p.Confirmation.MaskedPhone)
		c.wantError(400, "validation_error", "code is required", "PUT", "/api/v2/payments/"+p.ID+"/complete", map[string]string{"cres": "Y"})
		done := complete(p.ID, map[string]string{"code": "123456"})
		assert.Equal(t, "Settled", done.Status)
		assert.Nil(t, done.Confirmation)
		assert.NotEmpty(t, done.Completed)
		bad := complete(c.pay(cardPayment("1002", "4000000000000077", "500")).ID, map[string]string{"code": "000000"})
		assert.Equal(t, "Rejected", bad.Status)
		assert.Equal(t, "ThreeDSecureFailed", bad.ResultCode)
		// Completing a finished payment is a move the state does not allow.
		c.wantError(409, "invalid_operation", "Settled", "PUT", "/api/v2/payments/"+p.ID+"/complete", map[string]string{"code": "123456"})
	})
	t.Run("ThreeDSChallenge", func(t *testing.T) {
		p := c.pay(cardPayment("1002", "4000000000003063", "500"))
		assert.NotEmpty(t, p.Confirmation.AcsURL)
		assert.NotEmpty(t, p.Confirmation.CReq)
		c.wantError(400, "validation_error", "cres is required", "PUT", "/api/v2/payments/"+p.ID+"/complete", map[string]string{"code": "123456"})
		assert.Equal(t, "Settled", complete(p.ID, map[string]string{"cres": "Y"}).Status)
		n := complete(c.pay(cardPayment("1002", "4000000000003063", "500")).ID, map[string]string{"cres": "N"})
		assert.Equal(t, "Rejected", n.Status)
	})
	t.Run("ThreeDSMethod then challenge", func(t *testing.T) {
		p := c.pay(cardPayment("1002", "4000000000003220", "500", dual))
		assert.NotEmpty(t, p.Confirmation.MethodURL)
		assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, p.Confirmation.TransactionID)
		step := complete(p.ID, map[string]string{"threeDSCompInd": "Y"})
		assert.Equal(t, "Confirmation", step.Status)
		assert.Equal(t, "ThreeDSChallenge", step.Confirmation.Type)
		assert.Equal(t, "Authorized", complete(p.ID, map[string]string{"cres": "Y"}).Status)
	})
	t.Run("ThreeDSv1", func(t *testing.T) {
		p := c.pay(cardPayment("1002", "4000000000000101", "500"))
		assert.NotEmpty(t, p.Confirmation.PAReq)
		c.wantError(400, "validation_error", "PARes is required", "PUT", "/api/v2/payments/"+p.ID+"/complete", nil)
		assert.Equal(t, "Settled", complete(p.ID, map[string]string{"PARes": "eJzVWFmT"}).Status)
	})
	t.Run("SBP External", func(t *testing.T) {
		p := c.pay(map[string]any{"merchantId": "1001", "amount": map[string]any{"value": 350, "currency": "RUB"},
			"paymentData": map[string]any{"paymentMethod": "sbp"}})
		require.NotNil(t, p.Confirmation)
		assert.Equal(t, "External", p.Confirmation.Type)
		assert.True(t, strings.HasPrefix(p.Confirmation.PaymentURL, "https://qr.nspk.ru/AD"))
		require.NotNil(t, p.Confirmation.UniversalLink)
		assert.NotEmpty(t, p.Confirmation.Instruction)
		c.wantError(400, "validation_error", "empty body", "PUT", "/api/v2/payments/"+p.ID+"/complete", map[string]string{"code": "1"})
		assert.Equal(t, "Settled", complete(p.ID, nil).Status)
	})
}

func TestHoldCaptureCancelRefund(t *testing.T) {
	srv := start(t, Options{SettleDelay: time.Hour})
	c := newClient(t, srv)
	p := c.pay(cardPayment("1004", "4111111111111111", "1000", dual))
	require.Equal(t, "Authorized", p.Status)
	path := "/api/v2/payments/" + p.ID

	c.wantError(409, "invalid_operation", "Authorized", "POST", "/api/v2/refunds",
		map[string]any{"paymentId": p.ID, "amount": map[string]any{"value": 10, "currency": "RUB"}})
	c.wantError(409, "invalid_operation", "1000.00 RUB is authorized", "PUT", path+"/confirm",
		map[string]any{"amount": map[string]any{"value": 1000.01, "currency": "RUB"}})
	c.wantError(400, "validation_error", "payment's currency", "PUT", path+"/confirm",
		map[string]any{"amount": map[string]any{"value": 10, "currency": "EUR"}})
	c.wantError(400, "validation_error", "greater than 0", "PUT", path+"/confirm",
		map[string]any{"amount": map[string]any{"value": 0, "currency": "RUB"}})

	body := c.want(200, "PUT", path+"/confirm", map[string]any{"amount": map[string]any{"value": 600, "currency": "RUB"}}, nil)
	assert.Empty(t, body, "confirm answers an empty body")
	got := c.getPayment(p.ID)
	assert.Equal(t, "Settled", got.Status)
	assert.Equal(t, "600", got.Amount.Value.String(), "a settled payment shows the captured amount")
	assert.Equal(t, money.MustParse("1000"), sp0Amount(t, srv, p.ID), "the store keeps the authorized amount for v1")
	assert.NotEmpty(t, got.Completed)
	sp, err := srv.Store().GetPayment(p.ID)
	require.NoError(t, err)
	assert.Equal(t, money.MustParse("600"), sp.Captured)
	assert.Equal(t, "COMPLETE", sp.Status.V1State())

	c.wantError(409, "invalid_operation", "Settled", "PUT", path+"/confirm", nil)
	c.wantError(409, "invalid_operation", "Settled", "PUT", path+"/cancel", nil)

	// Refunds are bounded by the captured 600, not the authorized 1000.
	c.wantError(409, "invalid_operation", "600.00 RUB", "POST", "/api/v2/refunds",
		map[string]any{"paymentId": p.ID, "amount": map[string]any{"value": 700, "currency": "RUB"}})
	c.wantError(400, "validation_error", "payment's currency", "POST", "/api/v2/refunds",
		map[string]any{"paymentId": p.ID, "amount": map[string]any{"value": 100, "currency": "EUR"}})
	var r tRefund
	c.want(200, "POST", "/api/v2/refunds", map[string]any{"paymentId": p.ID, "amount": map[string]any{"value": 400, "currency": "RUB"}}, &r)
	assert.Equal(t, "Pending", r.Status)
	assert.Equal(t, p.ID, r.PaymentID)
	c.wantError(409, "invalid_operation", "200.00 RUB", "POST", "/api/v2/refunds",
		map[string]any{"paymentId": p.ID, "amount": map[string]any{"value": 300, "currency": "RUB"}})
	c.want(200, "POST", "/api/v2/refunds", map[string]any{"paymentId": p.ID, "amount": map[string]any{"value": 200, "currency": "RUB"}}, nil)
	var again tRefund
	c.want(200, "GET", "/api/v2/refunds/"+r.ID, nil, &again)
	assert.Equal(t, r, again)
	refunds, err := srv.Store().RefundsOfPayment(p.ID)
	require.NoError(t, err)
	assert.Len(t, refunds, 2)
	assert.Equal(t, "EXECUTING", refunds[0].Status.V1State())

	// A hold released; then nothing more can happen to it.
	h := c.pay(cardPayment("1004", "4111111111111111", "50", dual))
	assert.Empty(t, c.want(200, "PUT", "/api/v2/payments/"+h.ID+"/cancel", nil, nil))
	assert.Equal(t, "Cancelled", c.getPayment(h.ID).Status)
	c.wantError(409, "invalid_operation", "Cancelled", "PUT", "/api/v2/payments/"+h.ID+"/confirm", nil)
	c.wantError(409, "invalid_operation", "Cancelled", "PUT", "/api/v2/payments/"+h.ID+"/cancel", nil)

	// No body captures everything.
	f := c.pay(cardPayment("1004", "4111111111111111", "75.25", dual))
	c.want(200, "PUT", "/api/v2/payments/"+f.ID+"/confirm", nil, nil)
	fp, _ := srv.Store().GetPayment(f.ID)
	assert.Equal(t, money.MustParse("75.25"), fp.Captured)

	// A single-message payment cannot be captured or cancelled.
	s := c.pay(cardPayment("1004", "4111111111111111", "10"))
	c.wantError(409, "invalid_operation", "", "PUT", "/api/v2/payments/"+s.ID+"/confirm", nil)
	c.wantError(409, "invalid_operation", "", "PUT", "/api/v2/payments/"+s.ID+"/cancel", nil)

	// Unknown ids are 404 with the body docs/service.md gives.
	e := c.wantError(404, "invalid_operation", "", "GET", "/api/v2/payments/123", nil)
	assert.Equal(t, "payment 123 not found", e.Message)
	c.wantError(404, "invalid_operation", "refund 999 not found", "GET", "/api/v2/refunds/999", nil)
	c.wantError(404, "invalid_operation", "not found", "PUT", "/api/v2/payments/abc/cancel", nil)
}

func TestTokenRules(t *testing.T) {
	// The tokenization page is filled in SettleDelay after it is made: on a
	// clock that moves only by Advance, so that it is still Created when
	// read, however long the requests take.
	clock := newFakeClock()
	srv := start(t, Options{Now: clock.Now, SettleDelay: 150 * time.Millisecond})
	c := newClient(t, srv)
	var tok tToken
	c.want(200, "POST", "/api/v2/paymenttokens", map[string]any{
		"merchantId": "1002", "type": "recurring", "purpose": "Subscription",
		"paymentData": map[string]any{"paymentMethod": "bankcard", "card": map[string]any{"pan": "4111111111111111", "expiry": "12/30", "cvc": "123"}},
		"customer":    map[string]any{"account": "acc-1", "email": "a@example.org"},
	}, &tok)
	assert.Equal(t, "Created", tok.Status)
	require.NotNil(t, tok.Confirmation)
	assert.Equal(t, "External", tok.Confirmation.Type)
	assert.Equal(t, "Visa *1111", tok.Title)
	c.wantError(409, "invalid_operation", "Created", "PUT", "/api/v2/paymenttokens/"+tok.ID+"/revoke", nil)
	var active tToken
	c.want(200, "PUT", "/api/v2/paymenttokens/"+tok.ID+"/complete", nil, &active)
	assert.Equal(t, "Active", active.Status)
	assert.Nil(t, active.Confirmation)

	byToken := func(id string) map[string]any {
		return map[string]any{"merchantId": "1002", "amount": map[string]any{"value": 199, "currency": "RUB"},
			"paymentData": map[string]any{"token": map[string]any{"id": id}}}
	}
	p := c.pay(byToken(tok.ID))
	assert.Equal(t, "Settled", p.Status)
	require.NotNil(t, p.PaymentToken)
	assert.Equal(t, tok.ID, p.PaymentToken.ID)
	assert.Equal(t, "Visa *1111", p.PaymentToken.Title)
	c.wantError(409, "invalid_operation", "another merchant", "POST", "/api/v2/payments",
		map[string]any{"merchantId": "1001", "amount": map[string]any{"value": 1, "currency": "RUB"},
			"paymentData": map[string]any{"token": map[string]any{"id": tok.ID}}})

	require.NoError(t, srv.Store().BlockPaymentToken(tok.ID, true))
	c.wantError(422, "payment_token_blocked", "", "POST", "/api/v2/payments", byToken(tok.ID))
	require.NoError(t, srv.Store().BlockPaymentToken(tok.ID, false))

	assert.Empty(t, c.want(200, "PUT", "/api/v2/paymenttokens/"+tok.ID+"/revoke", nil, nil))
	c.want(200, "GET", "/api/v2/paymenttokens/"+tok.ID, nil, &tok)
	assert.Equal(t, "Revoked", tok.Status)
	c.wantError(409, "invalid_operation", "Revoked", "PUT", "/api/v2/paymenttokens/"+tok.ID+"/revoke", nil)
	c.wantError(422, "payment_token_revoked", "", "POST", "/api/v2/payments", byToken(tok.ID))
	c.wantError(404, "invalid_operation", "payment token 1 not found", "POST", "/api/v2/payments", byToken("1"))

	var declined tToken
	c.want(200, "POST", "/api/v2/paymenttokens", map[string]any{
		"merchantId":  "1002",
		"paymentData": map[string]any{"card": map[string]any{"pan": "4000000000000002"}},
	}, &declined)
	assert.Equal(t, "Declined", declined.Status)
	assert.Equal(t, "TransactionDeclined", declined.ResultCode)

	// The tokenization page: the customer "fills it in" after SettleDelay.
	var created struct{ TokenID, URL string }
	c.want(200, "POST", "/api/v2/tokenization", map[string]any{"merchantId": "1001", "type": "recurring",
		"purpose": "Coffee club", "customer": map[string]any{"account": "c-1"}}, &created)
	assert.Equal(t, srv.BaseURL()+"/tokenize/"+created.TokenID, created.URL)
	c.want(200, "GET", "/api/v2/paymenttokens/"+created.TokenID, nil, &tok)
	assert.Equal(t, "Created", tok.Status)
	_, err := srv.Store().Advance(150*time.Millisecond - time.Nanosecond)
	require.NoError(t, err)
	c.want(200, "GET", "/api/v2/paymenttokens/"+created.TokenID, nil, &tok)
	assert.Equal(t, "Created", tok.Status, "not before SettleDelay")
	_, err = srv.Store().Advance(time.Nanosecond)
	require.NoError(t, err)
	c.want(200, "GET", "/api/v2/paymenttokens/"+created.TokenID, nil, &tok)
	assert.Equal(t, "Active", tok.Status)
	assert.Equal(t, "Visa *1111", tok.Title)

	// A payment asking to save its card makes an Active token.
	saved := c.pay(cardPayment("1002", "5555555555554444", "10", func(b map[string]any) {
		b["tokenization"] = map[string]any{"type": "cof", "purpose": "One click"}
	}))
	require.NotNil(t, saved.PaymentToken)
	assert.Equal(t, "Mastercard *4444", saved.PaymentToken.Title)
}

func TestStickerRules(t *testing.T) {
	srv := start(t, Options{})
	c := newClient(t, srv)
	var st tSticker
	c.want(200, "POST", "/api/v2/stickers", map[string]any{
		"merchantId": "1001", "stickerType": "Sbp", "cashlink": true, "description": "Cappuccino to go",
		"productCode": "CAP-03", "paymentPurpose": "Coffee", "amount": map[string]any{"value": 1250, "currency": "RUB"},
		"callbackUrl": "http://127.0.0.1:1/never",
	}, &st)
	assert.Equal(t, "Active", st.Status)
	m := regexp.MustCompile(`^(https://qr\.nspk\.ru/AS[A-Z0-9]{30}\?type=01&bank=\d{12}&sum=125000&cur=RUB)&crc=([0-9A-F]{4})$`).FindStringSubmatch(st.Payload)
	require.NotNil(t, m, st.Payload)
	assert.Equal(t, m[2], strings.ToUpper(strconv.FormatUint(uint64(crc16(m[1]))|0x10000, 16))[1:], "crc is a CRC16 of the rest")

	var list struct {
		Items  []tSticker `json:"items"`
		Cursor string     `json:"cursor"`
	}
	c.want(200, "GET", "/api/v2/stickers?merchantId=1001", nil, &list)
	require.NotEmpty(t, list.Items)
	assert.Equal(t, st.ID, list.Items[0].ID, "newest first")
	assert.Empty(t, list.Cursor)

	assert.Empty(t, c.want(200, "PUT", "/api/v2/stickers/"+st.ID, map[string]any{"active": false}, nil))
	c.want(200, "GET", "/api/v2/stickers/"+st.ID, nil, &st)
	assert.Equal(t, "Inactive", st.Status)
	cash := map[string]any{"merchantId": "1001", "paymentData": map[string]any{"stickerId": st.ID}}
	c.wantError(409, "invalid_operation", "Inactive", "POST", "/api/v2/payments", cash)
	c.wantError(400, "validation_error", "active is required", "PUT", "/api/v2/stickers/"+st.ID, map[string]any{})

	c.want(200, "PUT", "/api/v2/stickers/"+st.ID, map[string]any{"active": true}, nil)
	p := c.pay(cash)
	assert.Equal(t, "Confirmation", p.Status)
	assert.Equal(t, st.Payload, p.Confirmation.PaymentURL)
	assert.Equal(t, "1250", p.Amount.Value.String(), "the sticker's amount")
	c.wantError(404, "invalid_operation", "sticker 1 not found", "GET", "/api/v2/stickers/1", nil)
}

func TestInvoiceExpires(t *testing.T) {
	clock := newFakeClock()
	srv := start(t, Options{Now: clock.Now})
	c := newClient(t, srv)
	var inv struct {
		PaymentID string `json:"paymentId"`
		URL       string `json:"url"`
	}
	c.want(200, "POST", "/api/v2/invoices", map[string]any{
		"merchantId": "1003", "amount": map[string]any{"value": 120, "currency": "EUR"},
		"invoice": map[string]any{"description": "Tour", "orderNo": "TRV-X-1", "expires": clock.Now().Add(time.Hour).Format(time.RFC3339)},
	}, &inv)
	assert.Equal(t, srv.BaseURL()+"/pay/"+inv.PaymentID, inv.URL)
	p := c.getPayment(inv.PaymentID)
	assert.Equal(t, "Pending", p.Status)
	assert.Nil(t, p.PaymentData, "nobody has paid yet")

	clock.Advance(59 * time.Minute)
	srv.Store().RunDue()
	assert.Equal(t, "Pending", c.getPayment(inv.PaymentID).Status)
	clock.Advance(2 * time.Minute)
	srv.Store().RunDue()
	p = c.getPayment(inv.PaymentID)
	assert.Equal(t, "Rejected", p.Status)
	assert.Equal(t, "PaymentExpired", p.ResultCode)

	// v1's lookup by order number finds it.
	byOrder, err := srv.Store().PaymentByOrderNo("1003", "TRV-X-1")
	require.NoError(t, err)
	assert.Equal(t, inv.PaymentID, byOrder.ID)
	assert.Equal(t, "CANCELLED", byOrder.Status.V1State())

	c.wantError(400, "validation_error", "invoice.expires is in the past", "POST", "/api/v2/invoices", map[string]any{
		"merchantId": "1003", "amount": map[string]any{"value": 1, "currency": "EUR"},
		"invoice": map[string]any{"expires": clock.Now().Add(-time.Hour).Format(time.RFC3339)},
	})
}

func TestSettleByTime(t *testing.T) {
	srv := start(t, Options{SettleDelay: 100 * time.Millisecond})
	c := newClient(t, srv)
	p := c.pay(cardPayment("1001", "4000000000000259", "300"))
	require.Equal(t, "Pending", p.Status)
	h := c.pay(cardPayment("1001", "4000000000000259", "300", dual))
	s := c.pay(cardPayment("1001", "4111111111111111", "300"))
	var ok, rejected tRefund
	c.want(200, "POST", "/api/v2/refunds", map[string]any{"paymentId": s.ID, "amount": map[string]any{"value": 100, "currency": "RUB"}}, &ok)
	c.want(200, "POST", "/api/v2/refunds", map[string]any{"paymentId": s.ID, "amount": map[string]any{"value": 100.13, "currency": "RUB"}}, &rejected)
	assert.Equal(t, "Success", ok.ResultCode, "a Pending refund's resultCode: accepted, nothing failed (doc.go)")
	require.Eventually(t, func() bool {
		c.want(200, "GET", "/api/v2/refunds/"+rejected.ID, nil, &rejected)
		return rejected.Status != "Pending"
	}, eventually, 20*time.Millisecond)
	assert.Equal(t, "Rejected", rejected.Status)
	c.want(200, "GET", "/api/v2/refunds/"+ok.ID, nil, &ok)
	assert.Equal(t, "Success", ok.Status)
	assert.Equal(t, "Success", ok.ResultCode)
	assert.Equal(t, "Settled", c.getPayment(p.ID).Status)
	assert.Equal(t, "Authorized", c.getPayment(h.ID).Status)
	// The rejected refund frees its amount again: 200 remain.
	sp, _ := srv.Store().GetPayment(s.ID)
	assert.Equal(t, money.MustParse("200"), sp.Remaining())
}

func TestSeededLiveEventsSettleSoon(t *testing.T) {
	clock := newFakeClock()
	st := NewStore(Options{Payments: 500, Now: clock.Now})
	count := func(status PaymentStatus) int {
		n := 0
		for _, p := range st.payments {
			if p.Status == status {
				n++
			}
		}
		return n
	}
	pending := count(PaymentPending)
	require.GreaterOrEqual(t, pending, 5)
	due, ok := st.NextDue()
	require.True(t, ok)
	assert.WithinDuration(t, clock.Now().Add(4*time.Second), due, time.Second)
	clock.Advance(30 * time.Second)
	assert.GreaterOrEqual(t, st.RunDue(), 9, "pending payments, refunds, an invoice and a token within 30 s")
	assert.Equal(t, 1, count(PaymentPending), "only the long invoice is still pending")
	var pendingRefunds int
	for _, r := range st.refunds {
		if r.Status == RefundPending {
			pendingRefunds++
		}
	}
	assert.Zero(t, pendingRefunds)
}

func TestStoreErrorsAreTyped(t *testing.T) {
	st := NewStore(Options{})
	_, err := st.GetPayment("43000000")
	var nf *NotFoundError
	require.ErrorAs(t, err, &nf)
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = st.CreatePayment(PaymentRequest{})
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Contains(t, ve.Problems, "merchantId is required")
	p, err := st.CreatePayment(PaymentRequest{MerchantID: "1001", Amount: &money.Amount{Value: money.MustParse("10"), Currency: "RUB"},
		Card: &CardData{PAN: "4111111111111111"}})
	require.NoError(t, err)
	_, err = st.CancelPayment(p.ID)
	assert.ErrorIs(t, err, ErrInvalidOperation)
	// v1 refunds give no currency: the payment's is meant.
	r, err := st.CreateRefund(RefundRequest{PaymentID: p.ID, Amount: &money.Amount{Value: money.MustParse("2.5")}, ExternalID: "ext-1"})
	require.NoError(t, err)
	assert.Equal(t, "RUB", r.Amount.Currency)
	refunds, overflow := st.FilterRefunds(RefundFilter{ExternalID: "ext-1"})
	assert.False(t, overflow)
	require.Len(t, refunds, 1)
	assert.Equal(t, r.ID, refunds[0].ID)
	_ = http.StatusOK
}

func sp0Amount(t *testing.T, srv *Server, id string) money.Decimal {
	t.Helper()
	p, err := srv.Store().GetPayment(id)
	require.NoError(t, err)
	return p.Amount.Value
}
