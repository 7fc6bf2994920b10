package sandbox

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
)

func TestV1SignatureVectors(t *testing.T) {
	u := V1User{Login: "TestLogin", Password: "secret"}
	assert.True(t, verifyV1Signature(u, "74DF1SM", "v7CUe8IhNnsIGnBNnJKaFGLQ0ro=", []string{"1"}))
	assert.True(t, verifyV1Signature(u, "74DF1SM", "upDXcdOcb0yn30TQa/sQUETf6Fc=", []string{"43149010", "10.50", "ORD-1"}))
	// The raw strings are hashed: 10.5 is not 10.50; an absent value is an
	// empty one, not nothing.
	assert.False(t, verifyV1Signature(u, "74DF1SM", "upDXcdOcb0yn30TQa/sQUETf6Fc=", []string{"43149010", "10.5", "ORD-1"}))
	assert.False(t, verifyV1Signature(u, "74DF1SM", "v7CUe8IhNnsIGnBNnJKaFGLQ0ro=", []string{"1", ""}))
	assert.False(t, verifyV1Signature(V1User{Login: "TestLogin", Password: "secreT"}, "74DF1SM", "v7CUe8IhNnsIGnBNnJKaFGLQ0ro=", []string{"1"}))
	assert.False(t, verifyV1Signature(u, "74DF1SN", "v7CUe8IhNnsIGnBNnJKaFGLQ0ro=", []string{"1"}))
	assert.False(t, verifyV1Signature(u, "74DF1SM", "", []string{"1"}))
	// The test's own signing agrees with the server's.
	assert.Equal(t, "v7CUe8IhNnsIGnBNnJKaFGLQ0ro=", tSign("TestLogin", "secret", "74DF1SM", []string{"1"}))
}

func TestV1Auth(t *testing.T) {
	srv := start(t, Options{Payments: 300})
	acc := newV1Client(t, srv, "accountant")
	cash := newV1Client(t, srv, "cashier")
	pid := srv.Store().payments[10].ID
	get := func(extra ...string) v1Req {
		return v1Req{op: "getPayment", params: append([]string{"paymentID", pid}, extra...)}
	}

	acc.ok("getPayment", "paymentID", pid)
	cash.ok("getPayment", "paymentID", pid)

	// A wrong password is a bad signature; so is a signature of other values.
	q := get()
	q.password = "not-the-password"
	acc.wantCode(v1ErrSignature, "signature", q)
	q = get()
	q.hash = tSign(acc.login, acc.password, "n-1", []string{"43000001"})
	q.nonce = "n-1"
	acc.wantCode(v1ErrSignature, "", q)

	// An unknown login is -6, before anything else.
	other := *acc
	other.login = "root"
	other.wantCode(v1ErrAccess, "login", get())
	other.login = ""
	other.wantCode(v1ErrAccess, "", get())

	// A reused nonce is -14; a badly signed request does not burn its nonce.
	bad := get()
	bad.nonce, bad.password = "nonce-A", "wrong"
	acc.wantCode(v1ErrSignature, "", bad)
	good := get()
	good.nonce = "nonce-A"
	require.Zero(t, acc.call(good).ErrorCode, "the nonce is still fresh after a bad signature")
	acc.wantCode(v1ErrNonce, "nonce", good)
	// Nonces are per login.
	cashGood := get()
	cashGood.nonce = "nonce-A"
	require.Zero(t, cash.call(cashGood).ErrorCode)
	// Its form: at most 255 characters, no ";", present.
	long := get()
	long.nonce = strings.Repeat("n", 256)
	acc.wantCode(v1ErrUnknown, "255", long)
	long.nonce = strings.Repeat("n", 255)
	require.Zero(t, acc.call(long).ErrorCode)
	semi := get()
	semi.nonce = "a;b"
	acc.wantCode(v1ErrUnknown, `";"`, semi)

	// Roles: the Cashier reads payments only.
	cash.ok("getPaymentByInvoiceID", "invoiceID", srv.Store().payments[10].Invoice.OrderNo, "siteAlias", srv.Store().payments[10].MerchantID)
	cash.ok("listPaymentsFilter", "periodFrom", "2000-01-01")
	for op, params := range map[string][]string{
		"refundPayment":       {"paymentID", pid, "amount", "1.00"},
		"listRefunds":         nil,
		"confirmPayment":      {"paymentID", pid, "amount", "1.00"},
		"cancelPayment":       {"paymentID", pid},
		"listDocuments":       nil,
		"getDocumentContent":  {"documentID", "605008"},
		"listTransfers":       nil,
		"getTransferRegister": {"registerID", "1"},
	} {
		cash.wantCode(v1ErrAccess, "insufficient rights", v1Req{method: http.MethodPost, op: op, params: params})
	}
	// The nonce check comes before the role check.
	n := tNonce()
	cash.wantCode(v1ErrAccess, "rights", v1Req{op: "listRefunds", nonce: n})
	cash.wantCode(v1ErrNonce, "", v1Req{op: "listRefunds", nonce: n})
	assert.Positive(t, srv.nonces.len("cashier"))
	assert.Positive(t, srv.nonces.len("accountant"))

	// Not an operation: 404; another method: 405; both with the envelope.
	resp, body := acc.send(v1Req{op: "getPayments"})
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Contains(t, string(body), `"ErrorCode":-1`)
	resp, body = acc.send(v1Req{method: http.MethodPut, op: "getPayment", params: []string{"paymentID", pid}})
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.Equal(t, "GET, POST", resp.Header.Get("Allow"))
	assert.Contains(t, string(body), `"ErrorCode":-1`)
}

func TestV1NonceStoreBounded(t *testing.T) {
	clock := newFakeClock()
	ns := newNonceStore(clock.Now)
	require.True(t, ns.use("a", "x"))
	require.False(t, ns.use("a", "x"))
	require.True(t, ns.use("b", "x"))
	clock.Advance(23 * time.Hour)
	require.False(t, ns.use("a", "x"), "kept for 24 hours")
	require.True(t, ns.use("a", "y"))
	clock.Advance(time.Hour + time.Second)
	require.True(t, ns.use("a", "x"), "forgotten after 24 hours")
	assert.Equal(t, 2, ns.len("a"), "x again and y")
	// At the cap the oldest are forgotten first.
	ns.max = 5000
	for i := range 3 * ns.max {
		require.True(t, ns.use("c", "n-"+strconv.Itoa(i)))
		clock.Advance(time.Millisecond)
	}
	assert.Equal(t, ns.max, ns.len("c"))
	assert.Equal(t, ns.max, len(ns.byLogin["c"].order)-ns.byLogin["c"].head)
	assert.Less(t, len(ns.byLogin["c"].order), 2*ns.max+1025, "the queue is compacted")
	assert.False(t, ns.use("c", "n-"+strconv.Itoa(3*ns.max-1)), "the newest are kept")
	assert.True(t, ns.use("c", "n-0"), "the oldest were forgotten")
}

func TestV1Payments(t *testing.T) {
	// The seed's live part moves by time (its pending payments settle
	// seconds after start): on a clock that does not move, a payment picked
	// by its status still has it when v1 reads it.
	clock := newFakeClock()
	srv := start(t, Options{Payments: 2000, Now: clock.Now, SettleDelay: 50 * time.Millisecond})
	st := srv.Store()
	acc := newV1Client(t, srv, "accountant")
	c := newClient(t, srv)

	// A card payment through v2 reads the same through v1.
	v2p := c.pay(cardPayment("1002", "4111111111111111", "1250.5", func(b map[string]any) {
		b["invoice"] = map[string]any{"description": "Two books", "orderNo": "BK-V1-1"}
		b["testMode"] = true
	}))
	env := acc.ok("getPayment", "paymentID", v2p.ID)
	p := env.Payment
	require.NotNil(t, p)
	assert.Equal(t, json.Number(v2p.ID), p.PaymentID)
	assert.Equal(t, "BK-V1-1", p.SiteInvoiceID)
	assert.Equal(t, json.Number("1002"), p.SiteID)
	assert.Equal(t, "RUB", p.CurrencyCode)
	assert.Equal(t, "RUB", p.PaymentCurrencyCode)
	assert.Equal(t, json.Number("1250.50"), p.Amount)
	assert.Equal(t, json.Number("1250.50"), p.PaymentAmount)
	assert.Equal(t, "COMPLETE", p.State)
	assert.Equal(t, "Two books", p.Purpose)
	assert.Equal(t, "BankCard", p.PaymentMethod)
	assert.True(t, p.IsTestPayment)
	assert.Equal(t, "t@example.org", p.UserIdentifier)
	assert.Equal(t, "79161234567", p.UserPhoneNumber)
	assert.Nil(t, p.ErrorCode, "no ErrorCode for a successful payment")
	sp, _ := st.GetPayment(v2p.ID)
	assert.Equal(t, sp.Updated.UTC().Format("2006-01-02T15:04:05"), p.LastUpdateTime)

	// By invoice number, with or without the site; names in any case.
	env = acc.ok("getPaymentByInvoiceID", "invoiceID", "BK-V1-1", "siteAlias", "1002")
	assert.Equal(t, json.Number(v2p.ID), env.Payment.PaymentID)
	env = acc.ok("getPaymentByInvoiceID", "invoiceid", "BK-V1-1")
	assert.Equal(t, json.Number(v2p.ID), env.Payment.PaymentID)
	env = acc.ok("getPayment", "PAYMENTID", v2p.ID)
	assert.Equal(t, json.Number(v2p.ID), env.Payment.PaymentID)
	env = acc.post("getPayment", "paymentid", v2p.ID)
	assert.Equal(t, json.Number(v2p.ID), env.Payment.PaymentID)
	acc.wantCode(v1ErrUnknown, "more than once", v1Req{op: "getPayment", params: []string{"paymentID", v2p.ID, "paymentid", v2p.ID}})

	// Not found, missing, unknown site.
	acc.wantCode(v1ErrNotFound, "", v1Req{op: "getPaymentByInvoiceID", params: []string{"invoiceID", "NO-SUCH-ORDER"}})
	acc.wantCode(v1ErrNotFound, "", v1Req{op: "getPaymentByInvoiceID", params: []string{"invoiceID", "BK-V1-1", "siteAlias", "1001"}})
	acc.wantCode(v1ErrNotFound, "", v1Req{op: "getPayment", params: []string{"paymentID", "99999999"}})
	acc.wantCode(v1ErrNotFound, "", v1Req{op: "getPayment", params: []string{"paymentID", "abc"}})
	acc.wantCode(v1ErrUnknown, "paymentID is required", v1Req{op: "getPayment"})
	acc.wantCode(v1ErrUnknown, "invoiceID is required", v1Req{op: "getPaymentByInvoiceID"})
	acc.wantCode(v1ErrAccess, "9999", v1Req{op: "getPaymentByInvoiceID", params: []string{"invoiceID", "BK-V1-1", "siteAlias", "9999"}})

	// A declined payment is CANCELLED with the decline's code.
	declined := c.pay(cardPayment("1001", "4000000000009995", "10"))
	require.Equal(t, "Rejected", declined.Status)
	env = acc.ok("getPayment", "paymentID", declined.ID)
	assert.Equal(t, "CANCELLED", env.Payment.State)
	require.NotNil(t, env.Payment.ErrorCode)
	assert.Equal(t, -19, *env.Payment.ErrorCode)
	assert.Equal(t, json.Number("0.00"), env.Payment.PaymentAmount)

	// Every v2 status has its v1 state.
	for status, state := range map[PaymentStatus]string{PaymentPending: "INITIATED", PaymentConfirmation: "PROCESSING",
		PaymentAuthorized: "HOLD", PaymentSettled: "COMPLETE", PaymentCancelled: "CANCELLED", PaymentRejected: "CANCELLED"} {
		list, _ := st.FilterPayments(PaymentFilter{Statuses: []PaymentStatus{status}, Limit: 1})
		require.NotEmpty(t, list, status)
		env = acc.ok("getPayment", "paymentID", list[0].ID)
		assert.Equal(t, state, env.Payment.State, status)
		if status == PaymentRejected {
			require.NotNil(t, env.Payment.ErrorCode)
			assert.Equal(t, list[0].V1ErrorCode(), *env.Payment.ErrorCode)
			assert.Negative(t, *env.Payment.ErrorCode)
		}
	}
}

func TestV1ListsAndOverflow(t *testing.T) {
	clock := newFakeClock()
	srv := start(t, Options{Payments: 3000, Now: clock.Now})
	st := srv.Store()
	acc := newV1Client(t, srv, "accountant")

	// Everything: the 1,000 newest and Overflow.
	list := response[tPaymentList](t, acc.ok("listPaymentsFilter"))
	require.NotNil(t, list.Overflow)
	assert.True(t, *list.Overflow)
	require.Len(t, list.Payments, 1000)
	all, _ := st.FilterPayments(PaymentFilter{Limit: 100000})
	for i := range 1000 {
		require.Equal(t, json.Number(all[i].ID), list.Payments[i].PaymentID, "newest first, %d", i)
	}

	// One site, one day: both bounds inclusive days, no overflow.
	day := clock.Now().AddDate(0, 0, -10).Format(time.DateOnly)
	list = response[tPaymentList](t, acc.ok("listPaymentsFilter", "accountID", V1AccountID, "siteAlias", "1002", "periodFrom", day, "periodTo", day))
	assert.False(t, *list.Overflow)
	require.NotEmpty(t, list.Payments)
	want := 0
	for _, p := range all {
		if p.MerchantID == "1002" && p.Created.Format(time.DateOnly) == day {
			want++
		}
	}
	assert.Len(t, list.Payments, want)
	for _, p := range list.Payments {
		sp, err := st.GetPayment(string(p.PaymentID))
		require.NoError(t, err)
		assert.Equal(t, day, sp.Created.Format(time.DateOnly))
		assert.Equal(t, json.Number("1002"), p.SiteID)
	}

	// By state and by invoice number.
	holds := response[tPaymentList](t, acc.ok("listPaymentsFilter", "state", "HOLD"))
	held, _ := st.FilterPayments(PaymentFilter{Statuses: []PaymentStatus{PaymentAuthorized}})
	assert.Len(t, holds.Payments, len(held))
	for _, p := range holds.Payments {
		assert.Equal(t, "HOLD", p.State)
	}
	one := all[len(all)/2]
	byInv := response[tPaymentList](t, acc.ok("listPaymentsFilter", "invoiceID", one.Invoice.OrderNo, "siteAlias", one.MerchantID))
	require.NotEmpty(t, byInv.Payments)
	assert.Equal(t, one.Invoice.OrderNo, byInv.Payments[0].SiteInvoiceID)

	// Refunds, newest first, filtered by payment.
	refunds := response[tRefundList](t, acc.ok("listRefunds", "periodFrom", "2025-01-01"))
	allRefunds, _ := st.FilterRefunds(RefundFilter{Limit: 100000})
	assert.Equal(t, len(allRefunds) > 1000, *refunds.Overflow)
	require.Len(t, refunds.Refunds, min(1000, len(allRefunds)))
	assert.Equal(t, json.Number(allRefunds[0].ID), refunds.Refunds[0].RefundID)
	r0 := allRefunds[len(allRefunds)/2]
	refunds = response[tRefundList](t, acc.ok("listRefunds", "paymentID", r0.PaymentID))
	ofPayment, _ := st.RefundsOfPayment(r0.PaymentID)
	assert.Len(t, refunds.Refunds, len(ofPayment))
	for _, r := range refunds.Refunds {
		assert.Equal(t, json.Number(r0.PaymentID), r.PaymentID)
		assert.Nil(t, r.ExternalID, "seeded refunds have no externalID")
	}

	// Parameters that do not fit.
	acc.wantCode(v1ErrAccess, "ACC-2", v1Req{op: "listPaymentsFilter", params: []string{"accountID", "ACC-2"}})
	acc.wantCode(v1ErrUnknown, "periodFrom", v1Req{op: "listPaymentsFilter", params: []string{"periodFrom", "10.03.2026"}})
	acc.wantCode(v1ErrUnknown, "periodTo", v1Req{op: "listRefunds", params: []string{"periodTo", "2026-02-30"}})
	acc.wantCode(v1ErrUnknown, "state", v1Req{op: "listPaymentsFilter", params: []string{"state", "DONE"}})
	acc.wantCode(v1ErrNotFound, "", v1Req{op: "listRefunds", params: []string{"paymentID", "1"}})
}

func TestV1RefundsBothWays(t *testing.T) {
	// Refunds settle when the test moves the clock, never while it reads
	// them (on the real clock, 100 ms can pass between two requests).
	clock := newFakeClock()
	srv := start(t, Options{Payments: 200, Now: clock.Now, SettleDelay: 100 * time.Millisecond})
	st := srv.Store()
	settle := func() {
		t.Helper()
		_, err := st.Advance(100 * time.Millisecond)
		require.NoError(t, err)
	}
	acc := newV1Client(t, srv, "accountant")
	c := newClient(t, srv)
	p := c.pay(cardPayment("1001", "4111111111111111", "1000"))

	// A refund made through v2 shows in v1 as EXECUTING, then SUCCESS.
	var r tRefund
	c.want(200, "POST", "/api/v2/refunds", map[string]any{"paymentId": p.ID, "amount": map[string]any{"value": 100, "currency": "RUB"}}, &r)
	refunds := response[tRefundList](t, acc.ok("listRefunds", "paymentID", p.ID))
	require.Len(t, refunds.Refunds, 1)
	assert.Equal(t, "EXECUTING", refunds.Refunds[0].State)
	assert.Equal(t, json.Number(r.ID), refunds.Refunds[0].RefundID)
	assert.Equal(t, json.Number("100.00"), refunds.Refunds[0].Amount)
	assert.Nil(t, refunds.Refunds[0].ExternalID)
	assert.Nil(t, refunds.Refunds[0].ErrorCode)
	settle()
	refunds = response[tRefundList](t, acc.ok("listRefunds", "paymentID", p.ID))
	assert.Equal(t, "SUCCESS", refunds.Refunds[0].State)

	// A refund made through v1 shows in v2, with its externalID kept.
	env := acc.post("refundPayment", "paymentID", p.ID, "amount", "250.50", "externalID", "ret-77")
	require.NotNil(t, env.Refund)
	assert.Equal(t, "EXECUTING", env.Refund.State)
	assert.Equal(t, json.Number("250.50"), env.Refund.Amount)
	require.NotNil(t, env.Refund.ExternalID)
	assert.Equal(t, "ret-77", *env.Refund.ExternalID)
	var v2r tRefund
	c.want(200, "GET", "/api/v2/refunds/"+string(env.Refund.RefundID), nil, &v2r)
	assert.Equal(t, "Pending", v2r.Status)
	assert.Equal(t, json.Number("250.5"), v2r.Amount.Value)
	// The same externalID again is allowed; the list filters by it.
	acc.post("refundPayment", "paymentID", p.ID, "amount", "10", "externalID", "ret-77")
	byExt := response[tRefundList](t, acc.ok("listRefunds", "externalID", "ret-77"))
	assert.Len(t, byExt.Refunds, 2)

	// Amounts: malformed, zero, negative, too precise, too large: -18.
	for _, a := range []string{"abc", "0", "0.00", "-5", "1e2", "10,5", "10.505", "1000.01"} {
		acc.wantCode(v1ErrAmount, "", v1Req{method: http.MethodPost, op: "refundPayment", params: []string{"paymentID", p.ID, "amount", a}})
	}
	// 1000 - 100 - 250.50 - 10 = 639.50 remains.
	acc.wantCode(v1ErrAmount, "639.50", v1Req{method: http.MethodPost, op: "refundPayment", params: []string{"paymentID", p.ID, "amount", "639.51"}})
	acc.wantCode(v1ErrUnknown, "amount is required", v1Req{method: http.MethodPost, op: "refundPayment", params: []string{"paymentID", p.ID}})
	acc.wantCode(v1ErrNotFound, "", v1Req{method: http.MethodPost, op: "refundPayment", params: []string{"paymentID", "43999999", "amount", "1"}})

	// A refund ending in .13 fails: FAILURE with its code and text.
	env = acc.post("refundPayment", "paymentID", p.ID, "amount", "100.13")
	settle()
	var failed *tV1Refund
	for _, r := range response[tRefundList](t, acc.ok("listRefunds", "paymentID", p.ID)).Refunds {
		if r.RefundID == env.Refund.RefundID {
			failed = &r
		}
	}
	require.NotNil(t, failed)
	assert.Equal(t, "FAILURE", failed.State)
	require.NotNil(t, failed.ErrorCode)
	assert.Equal(t, -31, *failed.ErrorCode)
	require.NotNil(t, failed.ErrorDesc)
	assert.NotEmpty(t, *failed.ErrorDesc)

	// Refunds of a payment that is not COMPLETE: -31, or -15 if CANCELLED.
	hold := c.pay(cardPayment("1001", "4111111111111111", "300", dual))
	acc.wantCode(v1ErrNotAllow, "HOLD", v1Req{method: http.MethodPost, op: "refundPayment", params: []string{"paymentID", hold.ID, "amount", "1"}})
	declined := c.pay(cardPayment("1001", "4000000000000002", "300"))
	acc.wantCode(v1ErrCancelled, "CANCELLED", v1Req{method: http.MethodPost, op: "refundPayment", params: []string{"paymentID", declined.ID, "amount", "1"}})

	// The store agrees with what v1 said.
	sp, _ := st.GetPayment(p.ID)
	assert.Equal(t, money.MustParse("360.50"), sp.Refunded)
}

func TestV1ConfirmAndCancelHolds(t *testing.T) {
	srv := start(t, Options{Payments: 200})
	acc := newV1Client(t, srv, "accountant")
	c := newClient(t, srv)

	// A hold confirmed through v1 for less reads Settled through v2 with
	// the captured amount; v1 shows both amounts.
	hold := c.pay(cardPayment("1004", "4111111111111111", "5000", dual))
	require.Equal(t, "Authorized", hold.Status)
	assert.Equal(t, "HOLD", acc.ok("getPayment", "paymentID", hold.ID).Payment.State)
	acc.wantCode(v1ErrAmount, "5000.00", v1Req{method: http.MethodPost, op: "confirmPayment", params: []string{"paymentID", hold.ID, "amount", "5000.01"}})
	acc.wantCode(v1ErrAmount, "", v1Req{method: http.MethodPost, op: "confirmPayment", params: []string{"paymentID", hold.ID, "amount", "x"}})
	acc.wantCode(v1ErrUnknown, "amount is required", v1Req{method: http.MethodPost, op: "confirmPayment", params: []string{"paymentID", hold.ID}})
	env := acc.post("confirmPayment", "paymentID", hold.ID, "amount", "4200.00")
	assert.Equal(t, "COMPLETE", env.Payment.State)
	assert.Equal(t, json.Number("5000.00"), env.Payment.Amount)
	assert.Equal(t, json.Number("4200.00"), env.Payment.PaymentAmount)
	v2 := c.getPayment(hold.ID)
	assert.Equal(t, "Settled", v2.Status)
	assert.Equal(t, json.Number("4200"), v2.Amount.Value)
	acc.wantCode(v1ErrNotAllow, "COMPLETE", v1Req{method: http.MethodPost, op: "confirmPayment", params: []string{"paymentID", hold.ID, "amount", "1"}})
	acc.wantCode(v1ErrNotAllow, "COMPLETE", v1Req{method: http.MethodPost, op: "cancelPayment", params: []string{"paymentID", hold.ID}})

	// Cancelling a hold with a reason: CANCELLED with that ErrorCode; v2 Cancelled.
	hold2 := c.pay(cardPayment("1004", "4111111111111111", "700", dual))
	acc.wantCode(v1ErrUnknown, "-99", v1Req{method: http.MethodPost, op: "cancelPayment", params: []string{"paymentID", hold2.ID, "error", "-99"}})
	acc.wantCode(v1ErrUnknown, "", v1Req{method: http.MethodPost, op: "cancelPayment", params: []string{"paymentID", hold2.ID, "error", "0"}})
	env = acc.post("cancelPayment", "paymentID", hold2.ID, "error", "-17")
	assert.Equal(t, "CANCELLED", env.Payment.State)
	require.NotNil(t, env.Payment.ErrorCode)
	assert.Equal(t, -17, *env.Payment.ErrorCode)
	assert.Equal(t, "Cancelled", c.getPayment(hold2.ID).Status)
	acc.wantCode(v1ErrCancelled, "CANCELLED", v1Req{method: http.MethodPost, op: "cancelPayment", params: []string{"paymentID", hold2.ID}})
	acc.wantCode(v1ErrCancelled, "", v1Req{method: http.MethodPost, op: "confirmPayment", params: []string{"paymentID", hold2.ID, "amount", "1"}})

	// Without a reason: no ErrorCode (as for a hold released through v2).
	hold3 := c.pay(cardPayment("1004", "4111111111111111", "700", dual))
	env = acc.post("cancelPayment", "paymentID", hold3.ID)
	assert.Equal(t, "CANCELLED", env.Payment.State)
	assert.Nil(t, env.Payment.ErrorCode)
	hold4 := c.pay(cardPayment("1004", "4111111111111111", "700", dual))
	c.want(200, "PUT", "/api/v2/payments/"+hold4.ID+"/cancel", nil, nil)
	assert.Nil(t, acc.ok("getPayment", "paymentID", hold4.ID).Payment.ErrorCode)
	// GET works for a POST operation too.
	hold5 := c.pay(cardPayment("1004", "4111111111111111", "700", dual))
	assert.Equal(t, "COMPLETE", acc.ok("confirmPayment", "paymentID", hold5.ID, "amount", "700").Payment.State)
}

func TestV1FaultsApply(t *testing.T) {
	srv := start(t, Options{Payments: 50, Faults: Faults{ErrorRate: 1}})
	acc := newV1Client(t, srv, "accountant")
	resp, _ := acc.send(v1Req{op: "getPayment", params: []string{"paymentID", "43000001"}})
	assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
}
