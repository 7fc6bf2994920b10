package backend

import (
	"context"
	"errors"
	"strings"
	"time"

	"paydash/backend/money"
	"paydash/backend/transport"
	v1 "paydash/backend/v1"
)

// overV1 serves the Backend over the legacy signed interface: payments,
// refunds, holds, transfers, registers and documents. Tokens, stickers and
// links do not exist there.
type overV1 struct {
	api  *v1.Client
	desc Description
	caps *Capabilities
	ans  *answers
}

const needV2 = "the legacy interface cannot do this; set PAYDASH_V2_TOKEN to use the current one"

// accountantOnly are what a v1 Cashier may not do (docs/service.md, the
// roles).
var accountantOnly = []ActionName{ActionCapture, ActionCancelHold, ActionRefund, ReadRefunds, ReadRegisters}

func openV1(cfg Config, host string, ans *answers) (*overV1, error) {
	// The client sends through our HTTP client (the CAs are in it), so
	// that every answer is seen (answers.go).
	hc, err := ans.httpClient(cfg, 64)
	if err != nil {
		return nil, err
	}
	opts := []v1.Option{v1.WithUserAgent("paydash"), v1.WithHTTPClient(hc)}
	if cfg.Timeout > 0 {
		opts = append(opts, v1.WithTimeout(cfg.Timeout))
	}
	if cfg.Logger != nil || cfg.Debug != nil {
		opts = append(opts, v1.WithRequestLog(func(e v1.RequestLogEntry) {
			cfg.Debug.Log("request", "interface", "v1", "operation", e.Operation, "status", e.Status,
				"duration", e.Duration, "attempt", e.Attempt, "failed", e.Err != nil)
			if cfg.Logger == nil {
				return
			}
			attrs := []any{"operation", e.Operation, "status", e.Status, "duration", e.Duration,
				"attempt", e.Attempt, "error_code", e.ErrorCode}
			if e.Err != nil {
				attrs = append(attrs, "error", e.Err.Error())
			}
			cfg.Logger.Info("v1 request", attrs...)
		}))
	}
	api, err := v1.NewClient(cfg.BaseURL, cfg.V1Login, cfg.V1Password, opts...)
	if err != nil {
		return nil, err
	}
	b := &overV1{
		api: api,
		desc: Description{
			Sandbox: cfg.Sandbox, BaseURL: cfg.BaseURL, Host: host,
			Interfaces: []Interface{V1}, MerchantIDs: cfg.MerchantIDs, ReadOnly: cfg.ReadOnly,
		},
		caps: newCapabilities(),
		ans:  ans,
	}
	if cfg.ReadOnly {
		b.caps.deny("paydash was started read-only (--read-only)", writeActions...)
	}
	b.caps.deny(needV2, v2OnlyActions()...)
	return b, nil
}

func (b *overV1) Describe() Description                     { return b.ans.describe(b.desc) }
func (b *overV1) ServiceNow() time.Time                     { return b.ans.clock.Now() }
func (b *overV1) Can(a ActionName) (ok bool, reason string) { return b.caps.Can(a) }

func (b *overV1) guard(a ActionName, op string) error {
	if ok, reason := b.caps.Can(a); !ok {
		kind := KindNotAuthorized
		if reason == needV2 {
			kind = KindUnsupported
		}
		return &Error{Kind: kind, Op: op, Message: reason}
	}
	return nil
}

// refuseV2Only is the error of an action the legacy interface does not
// have: the capabilities' reason when they refuse it (read-only comes
// first), else needV2, even for an action no kind has marked V2Only.
func (b *overV1) refuseV2Only(a ActionName, op string) error {
	if err := b.guard(a, op); err != nil {
		return err
	}
	return &Error{Kind: KindUnsupported, Op: op, Message: needV2}
}

// Probe tells a wrong login or password at once, and learns the role: the
// spec has no "who am I", but listing payments is open to every role and
// listing refunds only to an Accountant.
func (b *overV1) Probe(ctx context.Context) error {
	today := v1.DateOf(b.ServiceNow())
	f := v1.PaymentFilter{PeriodFrom: today, PeriodTo: today, State: v1.StateProcessing}
	if len(b.desc.MerchantIDs) > 0 {
		f.SiteAlias = b.desc.MerchantIDs[0]
	}
	if _, _, err := b.api.ListPaymentsFilter(ctx, f); err != nil {
		e := fromV1("check the v1 login", err)
		e.Op = probeOp(e.Kind, e.Op)
		if e.Kind == KindNotAuthorized {
			e.Kind = KindUnauthenticated // even a Cashier may list payments: the login is wrong
		}
		return e
	}
	// A day long past has no refunds: the answer costs nothing to make.
	longAgo := v1.DateOf(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
	_, _, err := b.api.ListRefunds(ctx, v1.RefundFilter{PeriodFrom: longAgo, PeriodTo: longAgo})
	if v1.IsNoAccess(err) {
		b.caps.deny("the v1 login is a Cashier: it may read payments only (an Accountant may refund, capture, cancel and read registers)", accountantOnly...)
		return nil
	}
	if err != nil {
		e := fromV1("check the v1 role", err)
		e.Op = probeOp(e.Kind, e.Op)
		return e
	}
	return nil
}

// fromV1 sorts a v1 failure by what the user can do about it.
func fromV1(op string, err error) *Error {
	e := &Error{Op: op, Err: err, Interface: V1, Kind: KindUnavailable}
	if ae, ok := v1.AsError(err); ok {
		e.Code, e.Message = itoa(ae.Code), ae.Message
		if e.Message == "" {
			e.Message = v1.Meaning(ae.Code)
		}
		switch {
		case v1.IsNoAccess(err):
			e.Kind = KindNotAuthorized
		case v1.IsBadSignature(err):
			e.Kind, e.Message = KindUnauthenticated, "the v1 password is wrong (the service rejected the request signature)"
		case v1.IsNotFound(err):
			e.Kind = KindNotFound
		case v1.IsBadAmount(err):
			e.Kind = KindInvalid
		case v1.IsRefused(err):
			e.Kind = KindRefused
		case v1.IsSystemFailure(err):
			e.Kind = KindUnavailable
		default:
			e.Kind = KindUnknown
		}
		return e
	}
	switch {
	case errors.Is(err, context.Canceled):
		e.Message = "cancelled"
	case errors.Is(err, transport.ErrAnswerTooLarge):
		e.Kind = KindTooLarge
	case errors.Is(err, v1.ErrMalformedResponse):
		e.Kind = KindMalformed
	}
	return e
}

// lostAnswer reports whether a failure leaves it open whether the request
// had its effect: no answer, or one that could not be read (garbled, or
// larger than paydash reads).
func lostAnswer(k ErrorKind) bool {
	return k == KindUnavailable || k == KindMalformed || k == KindTooLarge
}

// --- reads -------------------------------------------------------------

// days turns a period into the inclusive UTC days v1 filters by; the end is
// exclusive in PeriodQuery, so a period ending at midnight stops the day before.
func days(start, end time.Time) (v1.Date, v1.Date) {
	last := end
	if !end.IsZero() {
		last = end.Add(-time.Nanosecond)
	}
	return v1.DateOf(start), v1.DateOf(last)
}

func (b *overV1) ListPayments(q PeriodQuery) Pager[Payment] {
	from, to := days(q.Start, q.End)
	return b.paymentPages(v1.PaymentFilter{SiteAlias: q.MerchantID, PeriodFrom: from, PeriodTo: to})
}

// paymentPages pages listPaymentsFilter with f, narrowing the period on
// Overflow.
func (b *overV1) paymentPages(f v1.PaymentFilter) Pager[Payment] {
	pages := b.api.PaymentPages(f)
	return pagerFunc[Payment](func(ctx context.Context) (Page[Payment], error) {
		items, done, err := pages.Next(ctx)
		if err != nil {
			return Page[Payment]{}, fromV1("list payments", err)
		}
		out := make([]Payment, len(items))
		for i := range items {
			out[i] = paymentFromV1(&items[i], nil)
		}
		return Page[Payment]{Items: out, Done: done}, nil
	})
}

func (b *overV1) GetPayment(ctx context.Context, id string) (Payment, error) {
	p, resp, err := b.api.GetPayment(ctx, id)
	if err != nil {
		return Payment{}, fromV1(opf("read payment %s", id), err)
	}
	return paymentFromV1(p, resp.Body), nil
}

// FindPaymentByOrderNo asks getPaymentByInvoiceID (invoiceID, siteAlias =
// the merchant; an empty merchant is not sent: any site of the account).
// The service compares order numbers exactly, and merchants write them in
// upper case: a number it does not know as typed is asked once more in
// upper case (never twice when it was typed so).
func (b *overV1) FindPaymentByOrderNo(ctx context.Context, merchantID, orderNo string) (Payment, bool, error) {
	op := opf("find the payment of order number %s", orderNo)
	if orderNo == "" {
		return Payment{}, true, &Error{Kind: KindInvalid, Op: op, Interface: V1, Message: "the order number is empty"}
	}
	p, resp, err := b.api.GetPaymentByInvoiceID(ctx, orderNo, merchantID)
	if upper := strings.ToUpper(orderNo); err != nil && upper != orderNo && KindOf(fromV1(op, err)) == KindNotFound {
		op = opf("find the payment of order number %s (or %s)", orderNo, upper)
		p, resp, err = b.api.GetPaymentByInvoiceID(ctx, upper, merchantID)
	}
	if err != nil {
		return Payment{}, true, fromV1(op, err)
	}
	return paymentFromV1(p, resp.Body), true, nil
}

// ListRefunds lists the account's refunds of the period: v1 cannot filter
// refunds by site, so the merchant of the query is not applied.
func (b *overV1) ListRefunds(q PeriodQuery) Pager[Refund] {
	if err := b.guard(ReadRefunds, "list refunds"); err != nil {
		return pagerFunc[Refund](func(context.Context) (Page[Refund], error) { return Page[Refund]{}, err })
	}
	from, to := days(q.Start, q.End)
	pages := b.api.RefundPages(v1.RefundFilter{PeriodFrom: from, PeriodTo: to})
	return pagerFunc[Refund](func(ctx context.Context) (Page[Refund], error) {
		items, done, err := pages.Next(ctx)
		if err != nil {
			return Page[Refund]{}, fromV1("list refunds", err)
		}
		out := make([]Refund, len(items))
		for i := range items {
			out[i] = refundFromV1(&items[i], "")
		}
		return Page[Refund]{Items: out, Done: done}, nil
	})
}

func (b *overV1) GetRefund(_ context.Context, id string) (Refund, error) {
	return Refund{}, unsupported(opf("read refund %s", id),
		"the legacy interface cannot read a refund by its id; open it from the refunds list or its payment")
}

func (b *overV1) RefundsOfPayment(ctx context.Context, p Payment) ([]Refund, error) {
	op := opf("list refunds of payment %s", p.ID)
	if err := b.guard(ReadRefunds, op); err != nil {
		return nil, err
	}
	list, _, err := b.api.ListRefunds(ctx, v1.RefundFilter{PaymentID: p.ID})
	if err != nil {
		return nil, fromV1(op, err)
	}
	out := make([]Refund, len(list.Refunds))
	for i := range list.Refunds {
		out[i] = refundFromV1(&list.Refunds[i], p.Amount.Currency)
		out[i].MerchantID = p.MerchantID
	}
	return out, nil
}

func (b *overV1) GetToken(_ context.Context, id string) (Token, error) {
	return Token{}, unsupported(opf("read token %s", id), needV2)
}

func (b *overV1) ListStickers(StickerQuery) Pager[Sticker] {
	err := unsupported("list stickers", needV2)
	return pagerFunc[Sticker](func(context.Context) (Page[Sticker], error) { return Page[Sticker]{}, err })
}

func (b *overV1) GetSticker(_ context.Context, id string) (Sticker, error) {
	return Sticker{}, unsupported(opf("read sticker %s", id), needV2)
}

func (b *overV1) ListTransfers(ctx context.Context, q DayQuery) ([]Transfer, error) {
	if err := b.guard(ReadRegisters, "list transfers"); err != nil {
		return nil, err
	}
	list, _, err := b.api.ListTransfers(ctx, v1.PeriodFilter{PeriodFrom: v1.DateOf(q.From), PeriodTo: v1.DateOf(q.To)})
	if err != nil {
		return nil, fromV1("list transfers", err)
	}
	out := make([]Transfer, len(list))
	for i, t := range list {
		out[i] = Transfer{Created: t.Created, Amount: money.Amount{Value: t.TransferAmount, Currency: t.CurrencyCode},
			PaymentOrderID: t.PaymentOrderID, RegisterID: t.RegisterID}
	}
	return out, nil
}

// GetRegister asks for the XML form, so the raw view shows the register as
// the accountant knows it. An answer that cannot be read still comes back
// in Raw, beside the error, so the viewer can show it as far as it parses.
func (b *overV1) GetRegister(ctx context.Context, id string) (Register, error) {
	op := opf("read register %s", id)
	if err := b.guard(ReadRegisters, op); err != nil {
		return Register{}, err
	}
	r, resp, err := b.api.GetTransferRegister(ctx, id, true)
	if err != nil {
		e := fromV1(op, err)
		if e.Kind == KindMalformed && resp != nil {
			return Register{ID: id, Raw: resp.Body}, e
		}
		return Register{}, e
	}
	out := Register{ID: r.RegisterID, Number: r.RegisterNumber, PeriodFrom: r.PeriodFrom, PeriodTo: r.PeriodTo,
		Operations: make([]Operation, len(r.Operations)), Raw: resp.Body}
	for i, o := range r.Operations {
		out.Operations[i] = Operation{ID: o.OperationID, SiteAlias: o.SiteAlias, InvoiceID: o.InvoiceID, Stamp: o.Stamp,
			Currency: o.CurrencyCode, OperationAmount: o.OperationAmount, TransferAmount: o.TransferAmount}
	}
	return out, nil
}

func (b *overV1) ListDocuments(ctx context.Context, q DayQuery) ([]Document, error) {
	if err := b.guard(ReadRegisters, "list documents"); err != nil {
		return nil, err
	}
	list, _, err := b.api.ListDocuments(ctx, v1.PeriodFilter{PeriodFrom: v1.DateOf(q.From), PeriodTo: v1.DateOf(q.To)})
	if err != nil {
		return nil, fromV1("list documents", err)
	}
	out := make([]Document, len(list))
	for i, d := range list {
		out[i] = Document{ID: d.DocumentID, Created: d.Created, Description: d.Description, FileName: d.FileName}
	}
	return out, nil
}

func (b *overV1) GetDocument(ctx context.Context, id string) (DocumentContent, error) {
	op := opf("download document %s", id)
	if err := b.guard(ReadRegisters, op); err != nil {
		return DocumentContent{}, err
	}
	c, _, err := b.api.GetDocumentContent(ctx, id)
	if err != nil {
		return DocumentContent{}, fromV1(op, err)
	}
	return DocumentContent{FileName: c.FileName, ContentType: c.ContentType, Data: c.Data}, nil
}

// --- actions -----------------------------------------------------------

// CapturePayment confirms a hold. v1 needs the amount, so capturing "all of
// it" reads the hold first. A lost answer is settled by reading the payment
// again, never by sending the capture twice.
func (b *overV1) CapturePayment(ctx context.Context, r CaptureRequest) (Payment, error) {
	op := opf("capture payment %s", r.PaymentID)
	if err := b.guard(ActionCapture, op); err != nil {
		return Payment{}, err
	}
	amount := r.Amount
	if amount == nil {
		p, err := b.GetPayment(ctx, r.PaymentID)
		if err != nil {
			return Payment{}, err
		}
		amount = &p.Amount
	}
	p, resp, err := b.api.ConfirmPayment(ctx, r.PaymentID, v1.FormatAmount(*amount))
	if err != nil {
		return b.afterLostAnswer(ctx, op, r.PaymentID, PaymentSettled, err)
	}
	return paymentFromV1(p, resp.Body), nil
}

func (b *overV1) CancelPayment(ctx context.Context, paymentID string) (Payment, error) {
	op := opf("cancel payment %s", paymentID)
	if err := b.guard(ActionCancelHold, op); err != nil {
		return Payment{}, err
	}
	p, resp, err := b.api.CancelPayment(ctx, paymentID, 0)
	if err != nil {
		return b.afterLostAnswer(ctx, op, paymentID, PaymentCancelled, err)
	}
	return paymentFromV1(p, resp.Body), nil
}

func (b *overV1) afterLostAnswer(ctx context.Context, op, id string, want PaymentStatus, err error) (Payment, error) {
	e := fromV1(op, err)
	if lostAnswer(e.Kind) {
		if p, rerr := b.GetPayment(ctx, id); rerr == nil && p.Status == want {
			return p, nil
		}
	}
	return Payment{}, e
}

// RefundPayment sends the idempotency key as v1's externalID. The service
// does not refuse a repeated externalID, so the adapter looks for a refund
// with that externalID first: a retry after a lost answer finds the first
// refund instead of making a second.
func (b *overV1) RefundPayment(ctx context.Context, r RefundRequest) (Refund, error) {
	op := opf("refund %s of payment %s", r.Amount, r.PaymentID)
	if err := b.guard(ActionRefund, op); err != nil {
		return Refund{}, err
	}
	key := r.IdempotencyKey
	if key == "" {
		key = NewIdempotencyKey()
	}
	if prior, found, err := b.refundByKey(ctx, r.PaymentID, key, r.Amount.Currency); err != nil {
		return Refund{}, fromV1(op, err)
	} else if found {
		return prior, nil
	}
	ref, resp, err := b.api.RefundPayment(ctx, v1.RefundRequest{PaymentID: r.PaymentID, Amount: v1.FormatAmount(r.Amount), ExternalID: key})
	if err != nil {
		e := fromV1(op, err)
		if lostAnswer(e.Kind) {
			if prior, found, ferr := b.refundByKey(ctx, r.PaymentID, key, r.Amount.Currency); ferr == nil && found {
				return prior, nil
			}
		}
		return Refund{}, e
	}
	out := refundFromV1(ref, r.Amount.Currency)
	out.Raw = resp.Body
	return out, nil
}

// CheckRefund finds out what became of a refund whose answer was lost.
// Through v1 it looks for a refund of the payment whose externalID is the
// key: found is false when there is none, that is, when none was made. A
// refund sent through v2 cannot be found here.
func (b *overV1) CheckRefund(ctx context.Context, r RefundRequest, via Interface) (Refund, bool, error) {
	op := opf("look for refund %s of payment %s", r.Amount, r.PaymentID)
	// Without a key every refund of the payment would match.
	if err := cannotCheckRefund(op, V1, via, r.IdempotencyKey,
		"it was sent without an externalID, so it cannot be told apart from the payment's other refunds"); err != nil {
		return Refund{}, false, err
	}
	if err := b.guard(ReadRefunds, op); err != nil {
		return Refund{}, false, err
	}
	ref, found, err := b.refundByKey(ctx, r.PaymentID, r.IdempotencyKey, r.Amount.Currency)
	if err != nil {
		return Refund{}, false, fromV1(op, err)
	}
	return ref, found, nil
}

func (b *overV1) refundByKey(ctx context.Context, paymentID, key, currency string) (Refund, bool, error) {
	list, _, err := b.api.ListRefunds(ctx, v1.RefundFilter{PaymentID: paymentID, ExternalID: key})
	if err != nil || len(list.Refunds) == 0 {
		return Refund{}, false, err
	}
	return refundFromV1(&list.Refunds[0], currency), true, nil
}

func (b *overV1) RevokeToken(_ context.Context, id string) (Token, error) {
	return Token{}, b.refuseV2Only(ActionRevokeToken, opf("revoke token %s", id))
}

func (b *overV1) SetStickerActive(_ context.Context, id string, _ bool) (Sticker, error) {
	return Sticker{}, b.refuseV2Only(ActionToggleSticker, opf("switch sticker %s", id))
}

func (b *overV1) CreateInvoiceLink(context.Context, InvoiceLinkRequest) (InvoiceLink, error) {
	return InvoiceLink{}, b.refuseV2Only(ActionCreateInvoice, "create an invoice link")
}

func (b *overV1) CreateSticker(context.Context, StickerRequest) (Sticker, error) {
	return Sticker{}, b.refuseV2Only(ActionCreateSticker, "create a sticker")
}

func (b *overV1) CreateTokenizationLink(context.Context, TokenizationLinkRequest) (TokenizationLink, error) {
	return TokenizationLink{}, b.refuseV2Only(ActionCreateTokenization, "create a tokenization link")
}

// --- conversions ---------------------------------------------------------

// v1States maps the legacy states onto the v2 names (docs/service.md). CANCELLED
// covers both Cancelled and Rejected; a failure code tells them apart.
var v1States = map[string]PaymentStatus{
	v1.StateInitiated: PaymentPending, v1.StateProcessing: PaymentConfirmation, v1.StateHold: PaymentAuthorized,
	v1.StateComplete: PaymentSettled, v1.StateCancelled: PaymentCancelled,
}

var v1RefundStates = map[string]RefundStatus{
	v1.RefundPending: RefundPending, v1.RefundExecuting: RefundPending,
	v1.RefundSuccess: RefundSuccess, v1.RefundFailure: RefundRejected,
}

func paymentFromV1(p *v1.Payment, raw []byte) Payment {
	status, ok := v1States[p.State]
	if !ok {
		status = PaymentStatus(p.State)
	}
	if status == PaymentCancelled && p.ErrorCode != 0 && p.ErrorCode != v1.CodeExpired {
		status = PaymentRejected
	}
	amount := money.Amount{Value: p.Amount, Currency: p.CurrencyCode}
	if status == PaymentSettled && p.PaymentAmount.IsPositive() {
		// What was charged, as v2 shows it: refunds are bounded by it.
		amount = money.Amount{Value: p.PaymentAmount, Currency: firstNonEmpty(p.PaymentCurrencyCode, p.CurrencyCode)}
	}
	out := Payment{
		Source: V1, Detailed: raw != nil, ID: p.PaymentID, MerchantID: p.SiteID, Updated: p.LastUpdateTime,
		Status: status, TestMode: p.IsTestPayment, Amount: amount, OrderNo: p.SiteInvoiceID, Description: p.Purpose,
		PaymentMethod: p.PaymentMethod, V1: viewFromV1(p, raw),
	}
	if status.Final() {
		out.Completed = p.LastUpdateTime
	}
	if p.ErrorCode != 0 {
		out.ResultCode, out.Message = itoa(p.ErrorCode), v1.Meaning(p.ErrorCode)
	}
	return out
}

func viewFromV1(p *v1.Payment, raw []byte) *PaymentV1View {
	return &PaymentV1View{
		State: p.State, SiteInvoiceID: p.SiteInvoiceID,
		PaymentAmount:  money.Amount{Value: p.PaymentAmount, Currency: firstNonEmpty(p.PaymentCurrencyCode, p.CurrencyCode)},
		UserIdentifier: p.UserIdentifier, UserPhoneNumber: p.UserPhoneNumber, Purpose: p.Purpose,
		LastUpdate: p.LastUpdateTime, ErrorCode: p.ErrorCode, Raw: raw,
	}
}

func refundFromV1(r *v1.Refund, currency string) Refund {
	status, ok := v1RefundStates[r.State]
	if !ok {
		status = RefundStatus(r.State)
	}
	out := Refund{
		Source: V1, ID: r.RefundID, PaymentID: r.PaymentID, Updated: r.LastUpdate,
		Amount: money.Amount{Value: r.Amount, Currency: currency}, Status: status, ExternalID: r.ExternalID,
	}
	if r.ErrorCode != 0 {
		out.ResultCode = itoa(r.ErrorCode)
	}
	return out
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
