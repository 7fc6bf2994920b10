package v2_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
	v2 "paydash/backend/v2"
)

// fullPayment has every documented member of a Payment, fractional
// seconds, a non-string param, and members the spec does not know.
const fullPayment = `{
	"id": "pay_1",
	"created": "2024-05-01T10:00:00.123Z",
	"completed": "2024-05-01T10:00:05Z",
	"testMode": true,
	"status": "Confirmation",
	"resultCode": "Success",
	"message": "Approved",
	"merchantId": "m1",
	"invoice": {"description": "Order 5561", "orderNo": "5561", "expires": "2024-05-02T10:00:00Z",
		"params": {"shift": "night", "seat": 12, "flags": {"a": true}}},
	"amount": {"value": 1234567.8901, "currency": "RUB"},
	"customer": {"ip": "203.0.113.9"},
	"paymentData": {"paymentMethod": "BankCard", "paymentInstrumentTitle": "411111******1111", "agreement": "AG-1",
		"cardInfo": {"brand": "Visa", "issuer": "Sample Bank", "country": "RU", "type": "debit", "category": "classic"}},
	"confirmation": {"type": "ThreeDSChallenge", "acsUrl": "https://acs.example/c", "creq": "CREQ-1"},
	"paymentToken": {"id": "tok_1", "expires": "2027-01-31T00:00:00Z", "title": "Visa *1111"},
	"somethingNew": {"nested": [1, 2, {"x": null}]},
	"riskScore": 0.37
}`

func TestDecodeFullPayment(t *testing.T) {
	s := newServer(t, reply(http.StatusOK, fullPayment))
	c := newClient(t, s)

	p, _, err := c.Payments.Get(context.Background(), "pay_1")
	require.NoError(t, err)

	want := &v2.Payment{
		ID:         "pay_1",
		Created:    time.Date(2024, 5, 1, 10, 0, 0, 123_000_000, time.UTC),
		Completed:  time.Date(2024, 5, 1, 10, 0, 5, 0, time.UTC),
		TestMode:   true,
		Status:     v2.PaymentStatusConfirmation,
		ResultCode: v2.ResultCodeSuccess,
		Message:    "Approved",
		MerchantID: "m1",
		Invoice: v2.Invoice{
			Description: "Order 5561", OrderNo: "5561",
			Expires: time.Date(2024, 5, 2, 10, 0, 0, 0, time.UTC),
			Params:  v2.Params{"shift": "night", "seat": "12", "flags": `{"a":true}`},
		},
		Amount:   money.Amount{Value: money.MustParse("1234567.8901"), Currency: "RUB"},
		Customer: v2.Customer{IP: "203.0.113.9"},
		PaymentData: v2.PaymentInfo{
			PaymentMethod: "BankCard", PaymentInstrumentTitle: "411111******1111", Agreement: "AG-1",
			CardInfo: &v2.CardInfo{Brand: "Visa", Issuer: "Sample Bank", Country: "RU", Type: "debit", Category: "classic"},
		},
		Confirmation: &v2.Confirmation{Type: v2.ConfirmationThreeDSChallenge, ACSURL: "https://acs.example/c", CReq: "CREQ-1"},
		PaymentToken: &v2.PaymentTokenInfo{ID: "tok_1", Expires: time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC), Title: "Visa *1111"},
	}
	// Times compare by instant, not by *time.Location pointer.
	assert.True(t, want.Created.Equal(p.Created))
	assert.True(t, want.Completed.Equal(p.Completed))
	assert.True(t, want.Invoice.Expires.Equal(p.Invoice.Expires))
	assert.True(t, want.PaymentToken.Expires.Equal(p.PaymentToken.Expires))
	p.Created, p.Completed, p.Invoice.Expires, p.PaymentToken.Expires = want.Created, want.Completed, want.Invoice.Expires, want.PaymentToken.Expires
	assert.Equal(t, want, p)
	assert.Equal(t, "1234567.8901", p.Amount.Value.String(), "no float rounding")
}

func TestDecodeConfirmationTypes(t *testing.T) {
	cases := map[string]v2.Confirmation{
		`{"type":"External","paymentUrl":"https://x","universalLink":true,"instruction":"scan"}`: {
			Type: v2.ConfirmationExternal, PaymentURL: "https://x", UniversalLink: true, Instruction: "scan"},
		`{"type":"SmsOtp","maskedPhone":"+7***12"}`:                             {Type: v2.ConfirmationSmsOtp, MaskedPhone: "+7***12"},
		`{"type":"ThreeDSMethod","methodUrl":"https://m","transactionId":"tx"}`: {Type: v2.ConfirmationThreeDSMethod, MethodURL: "https://m", TransactionID: "tx"},
		`{"type":"ThreeDSv1","acsUrl":"https://a","PAReq":"pa"}`:                {Type: v2.ConfirmationThreeDSv1, ACSURL: "https://a", PAReq: "pa"},
	}
	for body, want := range cases {
		s := newServer(t, reply(http.StatusOK, `{"id":"t1","status":"Created","confirmation":`+body+`}`))
		tok, _, err := newClient(t, s).PaymentTokens.Get(context.Background(), "t1")
		require.NoError(t, err, body)
		require.NotNil(t, tok.Confirmation, body)
		assert.Equal(t, want, *tok.Confirmation, body)
	}
}

func TestAmountsAreExact(t *testing.T) {
	s := newServer(t, reply(http.StatusOK, `{"items":[
		{"id":"r1","amount":{"value":0.1,"currency":"RUB"}},
		{"id":"r2","amount":{"value":0.2,"currency":"RUB"}}]}`))
	l, _, err := newClient(t, s).Refunds.List(context.Background(), v2.ListParams{MerchantID: "m1"})
	require.NoError(t, err)
	require.Len(t, l.Items, 2)
	sum := l.Items[0].Amount.Value + l.Items[1].Amount.Value
	assert.Equal(t, money.MustParse("0.3"), sum)
	assert.Equal(t, "0.3", sum.String())
}

func TestMoreThanFourDecimalsIsMalformed(t *testing.T) {
	s := newServer(t, reply(http.StatusOK, `{"id":"r1","amount":{"value":0.30000000000000004,"currency":"RUB"}}`))
	_, _, err := newClient(t, s).Refunds.Get(context.Background(), "r1")
	require.ErrorIs(t, err, v2.ErrMalformedResponse, "never rounded silently")
}

func TestBOMIsTolerated(t *testing.T) {
	body := "\xEF\xBB\xBF" + `{"id":"s1","stickerType":"Sbp","cashlink":true,"status":"Inactive","payload":"https://qr.example/s1",
		"amount":{"value":99.99,"currency":"RUB"}}`
	s := newServer(t, reply(http.StatusOK, body))
	st, resp, err := newClient(t, s).Stickers.Get(context.Background(), "s1")
	require.NoError(t, err)
	assert.Equal(t, &v2.Sticker{
		ID: "s1", StickerType: "Sbp", Cashlink: true, Status: v2.StickerStatusInactive, Payload: "https://qr.example/s1",
		Amount: money.Amount{Value: money.MustParse("99.99"), Currency: "RUB"},
	}, st)
	assert.Equal(t, body, string(resp.Body), "raw body kept as received")
}

func TestBOMIsToleratedInErrors(t *testing.T) {
	s := newServer(t, reply(http.StatusConflict, "\xEF\xBB\xBF"+`{"code":"invalid_operation","message":"already captured"}`))
	_, err := newClient(t, s).Payments.Confirm(context.Background(), "p1", nil)
	assert.True(t, v2.IsInvalidOperation(err))
	var e *v2.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "already captured", e.Message)
}

// A success whose body is not what was asked for is an error, never a
// panic. A GET's answer that is not JSON at all (cut short on its way) is
// asked for again, within the retry bound; a whole JSON answer of the
// wrong shape would come back the same, and is not.
func TestMalformedSuccessIsAnErrorNotAPanic(t *testing.T) {
	for body, garbled := range map[string]bool{"": true, "<html>oops</html>": true, `{"id":`: true,
		`{"id":"p1"} trailing`: true, `[1,2]`: false, `{"id":"p1","amount":{"value":"x"}}`: false} {
		s := newServer(t, reply(http.StatusOK, body))
		p, resp, err := newClient(t, s, v2.WithRetries(2, time.Millisecond)).Payments.Get(context.Background(), "p1")
		require.ErrorIs(t, err, v2.ErrMalformedResponse, "body %q", body)
		assert.Nil(t, p)
		require.NotNil(t, resp)
		assert.Equal(t, body, string(resp.Body))
		if garbled {
			assert.Len(t, s.requests(), 3, "a garbled answer to a GET is asked for again: %q", body)
		} else {
			assert.Len(t, s.requests(), 1, "a whole answer is not asked for again: %q", body)
		}
	}
}

// The read before a dialog under the sandbox's malformed fault: the first
// answer cut in half, the second whole.
func TestGarbledGETIsAskedAgainAndSucceeds(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			reply(http.StatusOK, paymentAnswer[:len(paymentAnswer)/2])(w, r, n)
			return
		}
		reply(http.StatusOK, paymentAnswer)(w, r, n)
	})
	p, _, err := newClient(t, s, v2.WithRetries(2, time.Millisecond)).Payments.Get(context.Background(), "p1")
	require.NoError(t, err)
	assert.Equal(t, "p1", p.ID)
	assert.Len(t, s.requests(), 2)

	// A create's garbled answer is not asked for again by the client: the
	// refund may have been made, and the action layer finds out by key.
	s = newServer(t, reply(http.StatusOK, refundAnswer[:20]))
	_, _, err = newClient(t, s, v2.WithRetries(2, time.Millisecond)).Refunds.Create(context.Background(),
		&v2.RefundRequest{PaymentID: "p1", Amount: &money.Amount{Value: money.MustParse("5"), Currency: "RUB"}}, nil)
	require.ErrorIs(t, err, v2.ErrMalformedResponse)
	assert.Len(t, s.requests(), 1)
}

func TestInvoiceParamsAndEmptyDatesAreOmitted(t *testing.T) {
	s := newServer(t, reply(http.StatusOK, `{"paymentId":"p1","url":"u"}`))
	_, _, err := newClient(t, s).Invoices.Create(context.Background(), &v2.InvoiceRequest{
		MerchantID: "m1", Invoice: &v2.Invoice{OrderNo: "1"},
	}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"merchantId":"m1","invoice":{"orderNo":"1"}}`, string(s.requests()[0].Body))
}

func TestResultCodeMeaning(t *testing.T) {
	assert.Equal(t, "Card blocked or lost", v2.ResultCodeMeaning(v2.ResultCodeBlockedAccount))
	assert.Equal(t, "Rejected by fraud monitoring", v2.ResultCodeRejectedByFraud.Meaning())
	assert.Equal(t, "", v2.ResultCodeMeaning("SomethingNew"))
	for _, code := range []v2.ResultCode{
		v2.ResultCodeSuccess, v2.ResultCodeTransactionDeclined, v2.ResultCodeIssuerUnavailable, v2.ResultCodeRejectedByFraud,
		v2.ResultCodeInvalidAmount, v2.ResultCodeInvalidAccount, v2.ResultCodeBlockedAccount, v2.ResultCodeOperationNotAllowed,
		v2.ResultCodeInsufficientFunds, v2.ResultCodeExpiredAccount, v2.ResultCodePaymentLimitExceeded,
		v2.ResultCodePaymentCountExceeded, v2.ResultCodeCardNotEnrolled, v2.ResultCodeThreeDSecureFailed,
		v2.ResultCodeCancelledByUser, v2.ResultCodePaymentExpired,
	} {
		assert.NotEmpty(t, v2.ResultCodeMeaning(code), code)
	}
}

func TestCardDoesNotPrintItsNumber(t *testing.T) {
	card := v2.Card{PAN: "4111111111111111", Expiry: "12/29", CVC: "123"}
	for _, s := range []string{card.String(), card.GoString()} {
		assert.NotContains(t, s, "411111111111")
		assert.NotContains(t, s, "123")
		assert.Contains(t, s, "1111")
	}
}

// A call whose success has no body (confirm, cancel, revoke, sticker
// update) is not taken as done when a mangled body comes with the 200:
// that may be a refusal whose status was lost on the way (the sandbox's
// malformed fault turns a 403 into a 200 with half its body).
func TestGarbageWhereNoBodyIsExpectedIsMalformed(t *testing.T) {
	for body, ok := range map[string]bool{"": true, "  \n": true, "{}": true, `{"status":"Settled"}`: true,
		`{"code":"not_authorized","mess`: false, "<html>": false} {
		s := newServer(t, reply(http.StatusOK, body))
		_, err := newClient(t, s).Payments.Confirm(context.Background(), "p1", nil)
		if ok {
			assert.NoError(t, err, "body %q", body)
		} else {
			assert.ErrorIs(t, err, v2.ErrMalformedResponse, "body %q", body)
		}
	}
}
