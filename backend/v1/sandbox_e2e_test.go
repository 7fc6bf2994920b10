package v1_test

// End-to-end tests: the real client over real HTTPS against the embedded
// sandbox, for every operation of the spec, in JSON and (documents,
// transfers, registers) XML. One sandbox of 20,000 seeded payments is
// shared by these tests; each makes its own payments where it changes
// anything.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
	"paydash/backend/sandbox"
	v1 "paydash/backend/v1"
	v2 "paydash/backend/v2"
)

const (
	e2ePayments  = 20000
	cardApproved = "4111111111111111"
	siteCoffee   = "1001"
)

type e2eEnv struct {
	srv        *sandbox.Server
	info       sandbox.Info
	api        *v2.Client
	accountant *v1.Client
	cashier    *v1.Client
	users      map[string]sandbox.V1User // by role
}

var (
	e2eOnce sync.Once
	e2e     *e2eEnv
	e2eErr  error
	e2eStop context.CancelFunc
)

func TestMain(m *testing.M) {
	code := m.Run()
	if e2e != nil {
		_ = e2e.srv.Close()
	}
	if e2eStop != nil {
		e2eStop()
	}
	os.Exit(code)
}

// sharedEnv starts the sandbox the first time a test needs it. Its clock
// stands still: nothing settles between two requests of a test, however
// slow the machine, only when a test moves the clock (settle); and the
// day of every payment made is the day today names.
func sharedEnv(t *testing.T) *e2eEnv {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test against the sandbox; not in -short")
	}
	e2eOnce.Do(func() {
		var ctx context.Context
		ctx, e2eStop = context.WithCancel(context.Background())
		started := time.Now()
		srv, err := sandbox.Start(ctx, sandbox.Options{Seed: 11, Payments: e2ePayments, SettleDelay: 150 * time.Millisecond,
			Now: func() time.Time { return started }})
		if err != nil {
			e2eErr = err
			return
		}
		env := &e2eEnv{srv: srv, info: srv.Info(), users: map[string]sandbox.V1User{}}
		for _, u := range env.info.V1Users {
			env.users[u.Role] = u
		}
		if env.api, err = v2.NewClient(srv.BaseURL(), env.info.V2Token, v2.WithRootCAs(srv.CertPool())); err != nil {
			e2eErr = err
			return
		}
		acc, cash := env.users[sandbox.RoleAccountant], env.users[sandbox.RoleCashier]
		if env.accountant, err = v1.NewClient(srv.BaseURL(), acc.Login, acc.Password, v1.WithRootCAs(srv.CertPool())); err != nil {
			e2eErr = err
			return
		}
		if env.cashier, err = v1.NewClient(srv.BaseURL(), cash.Login, cash.Password, v1.WithRootCAs(srv.CertPool())); err != nil {
			e2eErr = err
			return
		}
		e2e = env
	})
	require.NoError(t, e2eErr)
	return e2e
}

// client makes another v1 client of the sandbox as user u.
func (e *e2eEnv) client(t *testing.T, login, password string, opts ...v1.Option) *v1.Client {
	t.Helper()
	c, err := v1.NewClient(e.srv.BaseURL(), login, password, append([]v1.Option{v1.WithRootCAs(e.srv.CertPool())}, opts...)...)
	require.NoError(t, err)
	return c
}

func uniqueOrder(t *testing.T) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "E2E-" + hex.EncodeToString(b[:])
}

func rub(s string) *money.Amount { return &money.Amount{Value: money.MustParse(s), Currency: "RUB"} }

// pay makes a card payment through v2: settled, or a hold with dual.
func (e *e2eEnv) pay(t *testing.T, amount string, dual bool) (*v2.Payment, string) {
	t.Helper()
	order := uniqueOrder(t)
	p, _, err := e.api.Payments.Create(context.Background(), &v2.PaymentRequest{
		MerchantID: siteCoffee, DualMode: dual, Amount: rub(amount),
		Invoice:     &v2.Invoice{Description: "Flat white", OrderNo: order},
		PaymentData: &v2.PaymentData{PaymentMethod: "bankcard", Card: &v2.Card{PAN: cardApproved, Expiry: "12/30", CVC: "123"}},
		Customer:    &v2.Customer{Email: "buyer@example.com", IP: "203.0.113.7"},
	}, nil)
	require.NoError(t, err)
	if dual {
		require.Equal(t, v2.PaymentStatusAuthorized, p.Status)
	} else {
		require.Equal(t, v2.PaymentStatusSettled, p.Status)
	}
	return p, order
}

// today is the sandbox's day.
func (e *e2eEnv) today() v1.Date { return v1.DateOf(e.srv.Store().Now()) }

// settle moves the sandbox's clock on by its settle delay: what was made
// EXECUTING settles before it returns.
func (e *e2eEnv) settle(t *testing.T) {
	t.Helper()
	_, err := e.srv.Store().Advance(e.srv.Store().SettleDelay())
	require.NoError(t, err)
}

func TestE2EPaymentLookupsAndLists(t *testing.T) {
	e := sharedEnv(t)
	ctx := context.Background()
	p, order := e.pay(t, "350.50", false)

	for _, c := range []*v1.Client{e.accountant, e.cashier} {
		got, resp, err := c.GetPayment(ctx, p.ID)
		require.NoError(t, err)
		assert.Equal(t, p.ID, got.PaymentID)
		assert.Equal(t, siteCoffee, got.SiteID)
		assert.Equal(t, order, got.SiteInvoiceID)
		assert.Equal(t, v1.StateComplete, got.State)
		assert.Equal(t, "RUB", got.CurrencyCode)
		assert.Equal(t, money.MustParse("350.5"), got.Amount)
		assert.Equal(t, money.MustParse("350.5"), got.PaymentAmount, "paid in full")
		assert.WithinDuration(t, e.srv.Store().Now(), got.LastUpdateTime, time.Second, "made now, by the sandbox's clock")
		assert.Equal(t, 0, got.ErrorCode)
		assert.Contains(t, string(resp.Body), `"PaymentID":`+p.ID)
		assert.NotEmpty(t, resp.Nonce)

		byInvoice, _, err := c.GetPaymentByInvoiceID(ctx, order, siteCoffee)
		require.NoError(t, err)
		assert.Equal(t, p.ID, byInvoice.PaymentID)
		byInvoice, _, err = c.GetPaymentByInvoiceID(ctx, order, "")
		require.NoError(t, err, "siteAlias may be omitted")
		assert.Equal(t, p.ID, byInvoice.PaymentID)

		l, _, err := c.ListPaymentsFilter(ctx, v1.PaymentFilter{AccountID: "ACC-1", SiteAlias: siteCoffee,
			PeriodFrom: e.today().AddDays(-1), PeriodTo: e.today(), InvoiceID: order, State: v1.StateComplete})
		require.NoError(t, err)
		assert.False(t, l.Overflow)
		require.Len(t, l.Payments, 1)
		assert.Equal(t, *got, l.Payments[0])
		l, _, err = c.ListPaymentsFilter(ctx, v1.PaymentFilter{InvoiceID: order, State: v1.StateHold})
		require.NoError(t, err)
		assert.Empty(t, l.Payments)
	}
}

// A refund made through v2 appears in v1 as EXECUTING, then SUCCESS; a
// refund made through v1 is EXECUTING with its externalID.
func TestE2ERefunds(t *testing.T) {
	e := sharedEnv(t)
	ctx := context.Background()
	p, _ := e.pay(t, "1000", false)
	_, _, err := e.accountant.ListRefunds(ctx, v1.RefundFilter{PaymentID: p.ID}) // warm the connection
	require.NoError(t, err)

	r2, _, err := e.api.Refunds.Create(ctx, &v2.RefundRequest{PaymentID: p.ID, Amount: rub("400")}, nil)
	require.NoError(t, err)
	l, _, err := e.accountant.ListRefunds(ctx, v1.RefundFilter{PaymentID: p.ID, PeriodFrom: e.today(), PeriodTo: e.today()})
	require.NoError(t, err)
	require.Len(t, l.Refunds, 1)
	assert.Equal(t, r2.ID, l.Refunds[0].RefundID)
	assert.Equal(t, p.ID, l.Refunds[0].PaymentID)
	assert.Equal(t, money.MustParse("400"), l.Refunds[0].Amount)
	assert.Equal(t, v1.RefundExecuting, l.Refunds[0].State, "a new refund is EXECUTING")
	assert.Empty(t, l.Refunds[0].ExternalID)
	e.settle(t)
	l, _, err = e.accountant.ListRefunds(ctx, v1.RefundFilter{PaymentID: p.ID})
	require.NoError(t, err)
	require.Len(t, l.Refunds, 1)
	assert.Equal(t, v1.RefundSuccess, l.Refunds[0].State, "then SUCCESS")

	ext := uniqueOrder(t)
	r1, resp, err := e.accountant.RefundPayment(ctx, v1.RefundRequest{PaymentID: p.ID,
		Amount: v1.FormatAmount(money.Amount{Value: money.MustParse("100.5"), Currency: "RUB"}), ExternalID: ext})
	require.NoError(t, err)
	assert.Contains(t, string(resp.Body), "100.50")
	assert.Equal(t, v1.RefundExecuting, r1.State)
	assert.Equal(t, ext, r1.ExternalID)
	assert.Equal(t, money.MustParse("100.5"), r1.Amount)
	assert.Equal(t, p.ID, r1.PaymentID)
	v2r, _, err := e.api.Refunds.Get(ctx, r1.RefundID)
	require.NoError(t, err, "the same refund id in both interfaces")
	assert.Equal(t, p.ID, v2r.PaymentID)

	byExt, _, err := e.accountant.ListRefunds(ctx, v1.RefundFilter{ExternalID: ext})
	require.NoError(t, err)
	require.Len(t, byExt.Refunds, 1)
	assert.Equal(t, r1.RefundID, byExt.Refunds[0].RefundID)

	// A refund of x.13 fails at settling (the sandbox's rule), with a
	// reason, and does not count against what remains.
	bad, _, err := e.accountant.RefundPayment(ctx, v1.RefundRequest{PaymentID: p.ID, Amount: "1.13"})
	require.NoError(t, err)
	assert.Equal(t, v1.RefundExecuting, bad.State)
	e.settle(t)
	l, _, err = e.accountant.ListRefunds(ctx, v1.RefundFilter{PaymentID: p.ID})
	require.NoError(t, err)
	listed := false
	for _, r := range l.Refunds {
		if r.RefundID == bad.RefundID {
			listed = true
			assert.Equal(t, v1.RefundFailure, r.State)
			assert.NotZero(t, r.ErrorCode)
			assert.NotEmpty(t, r.ErrorDesc)
		}
	}
	assert.True(t, listed, "the refund of 1.13 is listed")

	// 499.50 remain: 499.51 is a bad amount, 499.50 is fine.
	_, _, err = e.accountant.RefundPayment(ctx, v1.RefundRequest{PaymentID: p.ID, Amount: "499.51"})
	assert.True(t, v1.IsBadAmount(err), "%v", err)
	_, _, err = e.accountant.RefundPayment(ctx, v1.RefundRequest{PaymentID: p.ID, Amount: "499.50"})
	require.NoError(t, err)

	// RefundPages over the last days finds all four, once.
	pages := e.accountant.RefundPages(v1.RefundFilter{PaymentID: p.ID, PeriodFrom: e.today().AddDays(-2), PeriodTo: e.today()})
	var ids []string
	for {
		items, done, err := pages.Next(ctx)
		require.NoError(t, err)
		for _, r := range items {
			ids = append(ids, r.RefundID)
		}
		if done {
			break
		}
	}
	assert.Len(t, ids, 4)
	assert.Contains(t, ids, bad.RefundID)
	assert.Contains(t, ids, r1.RefundID)
	assert.Contains(t, ids, r2.ID)
}

// Holds: one captured (partly) through v1 reads as Settled through v2; one
// cancelled with a reason, one without.
func TestE2EHolds(t *testing.T) {
	e := sharedEnv(t)
	ctx := context.Background()
	hold, _ := e.pay(t, "1000", true)
	got, _, err := e.cashier.GetPayment(ctx, hold.ID)
	require.NoError(t, err)
	assert.Equal(t, v1.StateHold, got.State)
	assert.True(t, got.PaymentAmount.IsZero(), "nothing paid yet")

	_, _, err = e.accountant.ConfirmPayment(ctx, hold.ID, "1000.01")
	assert.True(t, v1.IsBadAmount(err), "more than the hold: %v", err)
	_, _, err = e.cashier.ConfirmPayment(ctx, hold.ID, "600.00")
	assert.True(t, v1.IsNoAccess(err), "a Cashier may not confirm: %v", err)
	done, _, err := e.accountant.ConfirmPayment(ctx, hold.ID, v1.FormatAmount(*rub("600")))
	require.NoError(t, err)
	assert.Equal(t, v1.StateComplete, done.State)
	assert.Equal(t, money.MustParse("600"), done.PaymentAmount)
	v2p, _, err := e.api.Payments.Get(ctx, hold.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusSettled, v2p.Status)
	assert.Equal(t, "600", v2p.Amount.Value.String())
	_, _, err = e.accountant.ConfirmPayment(ctx, hold.ID, "1.00")
	assert.True(t, v1.IsRefused(err), "a second capture: %v", err)

	withReason, _ := e.pay(t, "50", true)
	c, _, err := e.accountant.CancelPayment(ctx, withReason.ID, v1.CodeUserRefused)
	require.NoError(t, err)
	assert.Equal(t, v1.StateCancelled, c.State)
	assert.Equal(t, v1.CodeUserRefused, c.ErrorCode)
	v2p, _, err = e.api.Payments.Get(ctx, withReason.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusCancelled, v2p.Status)

	plain, _ := e.pay(t, "60", true)
	c, _, err = e.accountant.CancelPayment(ctx, plain.ID, 0)
	require.NoError(t, err)
	assert.Equal(t, v1.StateCancelled, c.State)
	assert.Equal(t, 0, c.ErrorCode)
	_, _, err = e.accountant.CancelPayment(ctx, plain.ID, 0)
	assert.True(t, v1.IsRefused(err), "a cancelled payment cannot be cancelled again: %v", err)
	e15, _ := v1.AsError(err)
	require.NotNil(t, e15)
	assert.Equal(t, v1.CodeExpiredOrCancelled, e15.Code)

	_, _, err = e.accountant.RefundPayment(ctx, v1.RefundRequest{PaymentID: plain.ID, Amount: "1.00"})
	assert.True(t, v1.IsRefused(err), "no refund of a cancelled hold: %v", err)
	open, _ := e.pay(t, "70", true)
	_, _, err = e.accountant.RefundPayment(ctx, v1.RefundRequest{PaymentID: open.ID, Amount: "1.00"})
	e31, ok := v1.AsError(err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, v1.CodeInadmissibleOperation, e31.Code, "no refund of a hold")
}

func TestE2EErrors(t *testing.T) {
	e := sharedEnv(t)
	ctx := context.Background()
	acc, cash := e.users[sandbox.RoleAccountant], e.users[sandbox.RoleCashier]
	p, _ := e.pay(t, "100", false)

	wrong := e.client(t, acc.Login, acc.Password+"x")
	_, _, err := wrong.GetPayment(ctx, p.ID)
	assert.True(t, v1.IsBadSignature(err), "%v", err)
	assert.NotContains(t, err.Error(), acc.Password)

	unknown := e.client(t, "nobody", "pw")
	_, _, err = unknown.GetPayment(ctx, p.ID)
	assert.True(t, v1.IsNoAccess(err), "%v", err)

	// A reused nonce: the second request is refused, also for a read
	// (the client's retries cannot help with a constant nonce).
	same := e.client(t, cash.Login, cash.Password, v1.WithNonceSource(func() string { return "fixed-" + p.ID }), v1.WithRetries(0, 0))
	_, _, err = same.GetPayment(ctx, p.ID)
	require.NoError(t, err)
	_, _, err = same.GetPayment(ctx, p.ID)
	assert.True(t, v1.IsNonceReused(err), "%v", err)

	// The Cashier reads, and may do nothing else.
	_, _, err = e.cashier.RefundPayment(ctx, v1.RefundRequest{PaymentID: p.ID, Amount: "1.00"})
	assert.True(t, v1.IsNoAccess(err), "%v", err)
	_, _, err = e.cashier.ListRefunds(ctx, v1.RefundFilter{PaymentID: p.ID})
	assert.True(t, v1.IsNoAccess(err), "%v", err)
	_, _, err = e.cashier.ListDocuments(ctx, v1.PeriodFilter{})
	assert.True(t, v1.IsNoAccess(err), "%v", err)
	_, _, err = e.cashier.ListTransfers(ctx, v1.PeriodFilter{XML: true})
	assert.True(t, v1.IsNoAccess(err), "an XML error too: %v", err)

	_, _, err = e.accountant.GetPaymentByInvoiceID(ctx, "no-such-order-"+p.ID, siteCoffee)
	assert.True(t, v1.IsNotFound(err), "%v", err)
	_, _, err = e.accountant.GetPayment(ctx, "999999999")
	assert.True(t, v1.IsNotFound(err), "%v", err)

	for _, amount := range []string{"abc", "0", "0.00", "-5", "10.505", "1e2", "100.01", "1,00"} {
		_, _, err = e.accountant.RefundPayment(ctx, v1.RefundRequest{PaymentID: p.ID, Amount: amount})
		assert.True(t, v1.IsBadAmount(err), "amount %q: %v", amount, err)
	}
	_, _, err = e.accountant.ListPaymentsFilter(ctx, v1.PaymentFilter{AccountID: "ACC-2"})
	assert.True(t, v1.IsNoAccess(err), "another account: %v", err)
	_, _, err = e.accountant.GetDocumentContent(ctx, "12345")
	var ae *v1.Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, v1.CodeUnknown, ae.Code)
	assert.Contains(t, ae.Message, "12345")
	_, _, err = e.accountant.GetTransferRegister(ctx, "12345", true)
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, v1.CodeUnknown, ae.Code)
	assert.Contains(t, ae.Message, "12345")
}

// A month of the busiest site, more than 1,000 payments, listed through
// PaymentPages is exactly the set v2 lists for the same UTC days.
func TestE2EPaymentPagesEqualV2(t *testing.T) {
	e := sharedEnv(t)
	ctx := context.Background()
	const days = 30
	from, to := e.today().AddDays(-(days - 1)), e.today()

	pages := e.cashier.PaymentPages(v1.PaymentFilter{SiteAlias: siteCoffee, PeriodFrom: from, PeriodTo: to})
	viaV1 := map[string]int{}
	for {
		items, done, err := pages.Next(ctx)
		require.NoError(t, err)
		for _, p := range items {
			viaV1[p.PaymentID]++
			if p.SiteID != siteCoffee {
				t.Fatalf("payment %s of site %s listed for site %s", p.PaymentID, p.SiteID, siteCoffee)
			}
		}
		if done {
			break
		}
	}
	viaV2 := map[string]bool{}
	for p, err := range e.api.Payments.All(ctx, v2.ListParams{MerchantID: siteCoffee, Start: from.Start(), End: to.AddDays(1).Start()}) {
		require.NoError(t, err)
		viaV2[p.ID] = true
	}
	require.Greater(t, len(viaV2), 1000, "the period needs narrowing")
	var twice, extra, missing []string
	for id, n := range viaV1 {
		if n != 1 {
			twice = append(twice, id)
		}
		if !viaV2[id] {
			extra = append(extra, id)
		}
	}
	for id := range viaV2 {
		if viaV1[id] == 0 {
			missing = append(missing, id)
		}
	}
	assert.Empty(t, twice, "listed more than once through v1")
	assert.Empty(t, extra, "listed through v1, not through v2")
	assert.Empty(t, missing, "listed through v2, not through v1")
	assert.Len(t, viaV1, len(viaV2))
	assert.LessOrEqual(t, pages.Requests(), 2*days-1, "no day of this seed holds 1,000 payments of one site")
	t.Logf("%d payments in %d requests", len(viaV1), pages.Requests())
}

func TestE2EDocuments(t *testing.T) {
	e := sharedEnv(t)
	ctx := context.Background()
	f := v1.PeriodFilter{PeriodFrom: e.today().AddDays(-100), PeriodTo: e.today()}
	docs, resp, err := e.accountant.ListDocuments(ctx, f)
	require.NoError(t, err)
	require.NotEmpty(t, docs)
	assert.Contains(t, resp.Header.Get("Content-Type"), "json")
	f.XML = true
	docsXML, resp, err := e.accountant.ListDocuments(ctx, f)
	require.NoError(t, err)
	assert.Contains(t, resp.Header.Get("Content-Type"), "xml")
	assert.True(t, strings.HasPrefix(string(resp.Body), "<?xml"))
	assert.Equal(t, docs, docsXML, "the same list in both forms")

	kinds := map[string]bool{}
	for _, d := range docs {
		assert.NotEmpty(t, d.DocumentID)
		assert.NotEmpty(t, d.FileName)
		assert.False(t, d.Created.IsZero())
		media := "text/csv"
		if strings.HasSuffix(d.FileName, ".pdf") {
			media = "application/pdf"
		}
		if kinds[media] {
			continue
		}
		kinds[media] = true
		content, _, err := e.accountant.GetDocumentContent(ctx, d.DocumentID)
		require.NoError(t, err, d.FileName)
		assert.True(t, strings.HasPrefix(content.ContentType, media), "%s: %s", d.FileName, content.ContentType)
		assert.Equal(t, d.FileName, content.FileName)
		require.NotEmpty(t, content.Data)
		if media == "application/pdf" {
			assert.True(t, strings.HasPrefix(string(content.Data), "%PDF-"))
		} else {
			assert.Contains(t, string(content.Data), ",")
		}
	}
	assert.Equal(t, map[string]bool{"text/csv": true, "application/pdf": true}, kinds)
}

// A register's operations are real payments and refunds of its period, of
// its site, and their transfer amounts add up to the transfer's.
func TestE2ETransfersAndRegisters(t *testing.T) {
	e := sharedEnv(t)
	ctx := context.Background()
	f := v1.PeriodFilter{PeriodFrom: e.today().AddDays(-100), PeriodTo: e.today()}
	transfers, _, err := e.accountant.ListTransfers(ctx, f)
	require.NoError(t, err)
	require.NotEmpty(t, transfers)
	f.XML = true
	transfersXML, _, err := e.accountant.ListTransfers(ctx, f)
	require.NoError(t, err)
	assert.Equal(t, transfers, transfersXML)

	// Every register adds up; the newest few are checked operation by operation.
	checked := 0
	for i := len(transfers) - 1; i >= 0; i-- {
		tr := transfers[i]
		xml := i%2 == 0
		reg, _, err := e.accountant.GetTransferRegister(ctx, tr.RegisterID, xml)
		require.NoError(t, err)
		assert.Equal(t, tr.RegisterID, reg.RegisterID)
		assert.NotEmpty(t, reg.RegisterNumber)
		var sum money.Decimal
		for _, op := range reg.Operations {
			sum += op.TransferAmount
			assert.Equal(t, tr.CurrencyCode, op.CurrencyCode)
		}
		require.Equal(t, tr.TransferAmount, sum, "register %s adds up to its transfer", reg.RegisterID)
		if checked < 3 && len(reg.Operations) > 0 && len(reg.Operations) <= 400 {
			checked++
			e.checkRegisterOperations(t, reg)
			other, _, err := e.accountant.GetTransferRegister(ctx, tr.RegisterID, !xml)
			require.NoError(t, err)
			assert.Equal(t, reg, other, "the same register in both forms")
		}
	}
	assert.Equal(t, 3, checked)
}

func (e *e2eEnv) checkRegisterOperations(t *testing.T, reg *v1.Register) {
	ctx := context.Background()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for _, op := range reg.Operations {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			assert.False(t, op.Stamp.Before(reg.PeriodFrom) || op.Stamp.After(reg.PeriodTo),
				"operation %s at %s is outside %s..%s", op.OperationID, op.Stamp, reg.PeriodFrom, reg.PeriodTo)
			if op.OperationAmount.IsPositive() {
				p, _, err := e.accountant.GetPayment(ctx, op.OperationID)
				if !assert.NoError(t, err, "payment %s", op.OperationID) {
					return
				}
				assert.Equal(t, v1.StateComplete, p.State)
				assert.Equal(t, op.SiteAlias, p.SiteID)
				assert.Equal(t, op.InvoiceID, p.SiteInvoiceID)
				assert.Equal(t, op.OperationAmount, p.PaymentAmount, "the captured amount")
				return
			}
			r, _, err := e.api.Refunds.Get(ctx, op.OperationID)
			if !assert.NoError(t, err, "refund %s", op.OperationID) {
				return
			}
			assert.Equal(t, v2.RefundStatusSuccess, r.Status)
			assert.Equal(t, -op.OperationAmount, r.Amount.Value)
			p, _, err := e.accountant.GetPayment(ctx, r.PaymentID)
			if assert.NoError(t, err) {
				assert.Equal(t, op.SiteAlias, p.SiteID)
				assert.Equal(t, op.InvoiceID, p.SiteInvoiceID)
			}
		}()
	}
	wg.Wait()
}

// 2,500 signed requests from 32 goroutines: every one is accepted, so no
// two nonces collided. Retries are off so that a -14 could not hide.
func TestE2EConcurrentSignedRequests(t *testing.T) {
	e := sharedEnv(t)
	ctx := context.Background()
	p, _ := e.pay(t, "10", false)
	var nonceErrors atomic.Int64
	acc := e.users[sandbox.RoleCashier]
	c := e.client(t, acc.Login, acc.Password, v1.WithRetries(0, 0), v1.WithRequestLog(func(le v1.RequestLogEntry) {
		if le.ErrorCode == v1.CodeNonceReused {
			nonceErrors.Add(1)
		}
	}))
	const total, workers = 2500, 32
	var next, ok atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for range workers {
		wg.Go(func() {
			for next.Add(1) <= total {
				got, _, err := c.GetPayment(ctx, p.ID)
				if err != nil {
					select {
					case errs <- err:
					default:
					}
					continue
				}
				if got.PaymentID == p.ID {
					ok.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.Equal(t, int64(total), ok.Load())
	assert.Zero(t, nonceErrors.Load())
}
