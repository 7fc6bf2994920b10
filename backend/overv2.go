package backend

import (
	"context"
	"errors"
	"time"

	"paydash/backend/transport"
	v2 "paydash/backend/v2"
	"paydash/debuglog"
)

// overV2 serves the Backend over the current JSON interface.
type overV2 struct {
	api  *v2.Client
	desc Description
	caps *Capabilities
	ans  *answers
	// parallel is how many requests a period read whole has out at once
	// (Config.ParallelReads; period.go).
	parallel int
}

// writeActions are the actions a read-only v2 token is refused.
var writeActions = Actions

func openV2(cfg Config, host string, ans *answers) (*overV2, error) {
	// The client sends through our HTTP client (the CAs are in it), so
	// that every answer is seen (answers.go).
	hc, err := ans.httpClient(cfg, 10)
	if err != nil {
		return nil, err
	}
	opts := []v2.Option{v2.WithUserAgent("paydash"), v2.WithHTTPClient(hc)}
	if cfg.Timeout > 0 {
		opts = append(opts, v2.WithTimeout(cfg.Timeout))
	}
	if cfg.Logger != nil || cfg.Debug != nil {
		opts = append(opts, v2.WithRequestLog(func(e v2.RequestLogEntry) {
			cfg.Debug.Log("request", "interface", "v2", "method", e.Method, "path", debuglog.RequestPath(e.Path), "status", e.Status,
				"duration", e.Duration, "attempt", e.Attempt, "failed", e.Err != nil)
			if cfg.Logger == nil {
				return
			}
			attrs := []any{"method", e.Method, "path", e.Path, "status", e.Status,
				"duration", e.Duration, "attempt", e.Attempt}
			if e.IdempotencyKey != "" {
				attrs = append(attrs, "idempotency_key", e.IdempotencyKey)
			}
			if e.Err != nil {
				attrs = append(attrs, "error", e.Err.Error())
			}
			cfg.Logger.Info("v2 request", attrs...)
		}))
	}
	api, err := v2.NewClient(cfg.BaseURL, cfg.V2Token, opts...)
	if err != nil {
		return nil, err
	}
	b := &overV2{
		api: api,
		desc: Description{
			Sandbox: cfg.Sandbox, BaseURL: cfg.BaseURL, Host: host,
			Interfaces: []Interface{V2}, MerchantIDs: cfg.MerchantIDs, ReadOnly: cfg.ReadOnly,
		},
		caps:     newCapabilities(),
		ans:      ans,
		parallel: cfg.ParallelReads,
	}
	if cfg.ReadOnly {
		b.caps.deny("paydash was started read-only (--read-only)", writeActions...)
	}
	return b, nil
}

func (b *overV2) Describe() Description                     { return b.ans.describe(b.desc) }
func (b *overV2) ServiceNow() time.Time                     { return b.ans.clock.Now() }
func (b *overV2) Can(a ActionName) (ok bool, reason string) { return b.caps.Can(a) }

// guard refuses an action the capabilities rule out, before any request.
func (b *overV2) guard(a ActionName, op string) error {
	if ok, reason := b.caps.Can(a); !ok {
		return &Error{Kind: KindNotAuthorized, Op: op, Message: reason}
	}
	return nil
}

// fail turns a client error into the adapter's, and learns from a refusal
// of rights that writes are not allowed with this token.
func (b *overV2) fail(op string, write bool, err error) error {
	e := fromV2(op, err)
	if write && e.Kind == KindNotAuthorized {
		b.caps.deny("the v2 token may not change anything (the service answered not_authorized)", writeActions...)
	}
	return e
}

func fromV2(op string, err error) *Error {
	e := &Error{Op: op, Err: err, Interface: V2}
	var ae *v2.Error
	if !errors.As(err, &ae) {
		switch {
		case errors.Is(err, context.Canceled):
			e.Kind, e.Message = KindUnavailable, "cancelled"
		case errors.Is(err, transport.ErrAnswerTooLarge):
			e.Kind = KindTooLarge
		case errors.Is(err, v2.ErrMalformedResponse):
			e.Kind = KindMalformed
		default:
			// Network failures, time-outs and unreadable answers land here.
			e.Kind = KindUnavailable
		}
		return e
	}
	e.Code, e.Message, e.Details = ae.Code, ae.Message, ae.Errors
	switch {
	case v2.IsUnauthenticated(err):
		e.Kind = KindUnauthenticated
	case v2.IsNotAuthorized(err):
		e.Kind = KindNotAuthorized
	case v2.IsNotFound(err):
		e.Kind = KindNotFound
	case v2.IsIdempotencyViolation(err):
		e.Kind = KindConflict
	case v2.IsInvalidOperation(err):
		e.Kind = KindRefused
	case v2.IsValidation(err):
		e.Kind = KindInvalid
	case v2.IsTokenRevoked(err):
		e.Kind = KindTokenRevoked
	case v2.IsTokenBlocked(err):
		e.Kind = KindTokenBlocked
	case v2.IsRateLimited(err), v2.IsServerError(err):
		e.Kind = KindUnavailable
	}
	return e
}

// --- reads -------------------------------------------------------------

func (b *overV2) ListPayments(q PeriodQuery) Pager[Payment] {
	return ReadPeriod(q, b.parallel, b.listPayments, func(p Payment) time.Time { return p.Created })
}

func (b *overV2) listPayments(q PeriodQuery) Pager[Payment] {
	return listV2(b, "list payments", func(ctx context.Context, cursor string) ([]v2.PaymentListItem, string, error) {
		page, _, err := b.api.Payments.List(ctx, v2.ListParams{
			MerchantID: q.MerchantID, Start: q.Start, End: q.End, Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return page.Items, page.Cursor, nil
	}, func(it *v2.PaymentListItem) Payment { return paymentFromV2List(*it) })
}

// listV2 pages through a v2 list: list asks for the page at a cursor, and
// convert makes each of its items paydash's.
func listV2[W, T any](b *overV2, op string, list func(ctx context.Context, cursor string) ([]W, string, error),
	convert func(*W) T) Pager[T] {
	return &cursorPager[T]{fetch: func(ctx context.Context, cursor string) ([]T, string, error) {
		page, next, err := list(ctx, cursor)
		if err != nil {
			return nil, "", b.fail(op, false, err)
		}
		items := make([]T, len(page))
		for i := range page {
			items[i] = convert(&page[i])
		}
		return items, next, nil
	}}
}

// readV2 reads the object id through v2 (get) and makes it paydash's
// (convert, which keeps the raw answer).
func readV2[W, T any](ctx context.Context, b *overV2, op, id string,
	get func(context.Context, string) (*W, *v2.Response, error), convert func(*W, []byte) T) (T, error) {
	w, resp, err := get(ctx, id)
	if err != nil {
		var zero T
		return zero, b.fail(op, false, err)
	}
	return convert(w, resp.Body), nil
}

func (b *overV2) GetPayment(ctx context.Context, id string) (Payment, error) {
	return readV2(ctx, b, opf("read payment %s", id), id, b.api.Payments.Get, paymentFromV2)
}

// FindPaymentByOrderNo: v2 cannot look a payment up by its order number
// (asked is false); the caller searches the lists.
func (b *overV2) FindPaymentByOrderNo(context.Context, string, string) (Payment, bool, error) {
	return Payment{}, false, nil
}

func (b *overV2) ListRefunds(q PeriodQuery) Pager[Refund] {
	return ReadPeriod(q, b.parallel, b.listRefunds, func(r Refund) time.Time { return r.Created })
}

func (b *overV2) listRefunds(q PeriodQuery) Pager[Refund] {
	return listV2(b, "list refunds", func(ctx context.Context, cursor string) ([]v2.Refund, string, error) {
		page, _, err := b.api.Refunds.List(ctx, v2.ListParams{
			MerchantID: q.MerchantID, Start: q.Start, End: q.End, Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return page.Items, page.Cursor, nil
	}, func(r *v2.Refund) Refund {
		out := refundFromV2(r, nil)
		out.MerchantID = q.MerchantID
		return out
	})
}

func (b *overV2) GetRefund(ctx context.Context, id string) (Refund, error) {
	return readV2(ctx, b, opf("read refund %s", id), id, b.api.Refunds.Get, refundFromV2)
}

// RefundsOfPayment walks the merchant's refunds made since the payment was
// created: v2 cannot filter refunds by payment, and no refund predates its
// payment, so this period holds them all.
func (b *overV2) RefundsOfPayment(ctx context.Context, p Payment) ([]Refund, error) {
	op := opf("list refunds of payment %s", p.ID)
	if p.MerchantID == "" || p.Created.IsZero() {
		full, err := b.GetPayment(ctx, p.ID)
		if err != nil {
			return nil, err
		}
		p = full
	}
	// Up to the service's now (a clock here may be behind it: a payment
	// made "later" than this machine's now is no error), and an hour on.
	end := b.ServiceNow().Add(time.Hour)
	if !end.After(p.Created) {
		end = p.Created.Add(time.Hour)
	}
	params := v2.ListParams{MerchantID: p.MerchantID, Start: p.Created, End: end}
	var out []Refund
	for r, err := range b.api.Refunds.All(ctx, params) {
		if err != nil {
			return nil, b.fail(op, false, err)
		}
		if r.PaymentID == p.ID {
			rf := refundFromV2(&r, nil)
			rf.MerchantID = p.MerchantID
			out = append(out, rf)
		}
	}
	return out, nil
}

func (b *overV2) GetToken(ctx context.Context, id string) (Token, error) {
	return readV2(ctx, b, opf("read token %s", id), id, b.api.PaymentTokens.Get, tokenFromV2)
}

func (b *overV2) ListStickers(q StickerQuery) Pager[Sticker] {
	return listV2(b, "list stickers", func(ctx context.Context, cursor string) ([]v2.Sticker, string, error) {
		page, _, err := b.api.Stickers.List(ctx, v2.StickerListParams{MerchantID: q.MerchantID, Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return page.Items, page.Cursor, nil
	}, func(st *v2.Sticker) Sticker {
		out := stickerFromV2(st, nil)
		out.MerchantID = q.MerchantID
		return out
	})
}

func (b *overV2) GetSticker(ctx context.Context, id string) (Sticker, error) {
	return readV2(ctx, b, opf("read sticker %s", id), id, b.api.Stickers.Get, stickerFromV2)
}

// --- actions -----------------------------------------------------------

// CapturePayment confirms a hold. The service answers an empty 200, so the
// payment is read again to show its new state. When the answer is lost (a
// network failure after the request left), the payment is read again too:
// if it is Settled the capture went through and that is the answer, since
// sending it again would be refused anyway.
func (b *overV2) CapturePayment(ctx context.Context, r CaptureRequest) (Payment, error) {
	op := opf("capture payment %s", r.PaymentID)
	if err := b.guard(ActionCapture, op); err != nil {
		return Payment{}, err
	}
	_, err := b.api.Payments.Confirm(ctx, r.PaymentID, r.Amount)
	return b.afterPaymentMove(ctx, op, r.PaymentID, PaymentSettled, err)
}

// CancelPayment releases a hold; a lost answer is settled as in CapturePayment.
func (b *overV2) CancelPayment(ctx context.Context, paymentID string) (Payment, error) {
	op := opf("cancel payment %s", paymentID)
	if err := b.guard(ActionCancelHold, op); err != nil {
		return Payment{}, err
	}
	_, err := b.api.Payments.Cancel(ctx, paymentID)
	return b.afterPaymentMove(ctx, op, paymentID, PaymentCancelled, err)
}

func (b *overV2) afterPaymentMove(ctx context.Context, op, id string, want PaymentStatus, err error) (Payment, error) {
	if err != nil {
		e := b.fail(op, true, err)
		if KindOf(e) != KindUnavailable {
			return Payment{}, e
		}
		if p, rerr := b.GetPayment(ctx, id); rerr == nil && p.Status == want {
			return p, nil
		}
		return Payment{}, e
	}
	return b.GetPayment(ctx, id)
}

// RefundPayment makes a refund under the request's idempotency key, so a
// repeat with the same key returns the first refund instead of a second one.
func (b *overV2) RefundPayment(ctx context.Context, r RefundRequest) (Refund, error) {
	op := opf("refund %s of payment %s", r.Amount, r.PaymentID)
	if err := b.guard(ActionRefund, op); err != nil {
		return Refund{}, err
	}
	amount := r.Amount
	ref, resp, err := b.api.Refunds.Create(ctx, &v2.RefundRequest{PaymentID: r.PaymentID, Amount: &amount},
		&v2.CreateOptions{IdempotencyKey: r.IdempotencyKey})
	if err != nil {
		return Refund{}, b.fail(op, true, err)
	}
	return refundFromV2(ref, resp.Body), nil
}

func (b *overV2) RevokeToken(ctx context.Context, tokenID string) (Token, error) {
	op := opf("revoke token %s", tokenID)
	if err := b.guard(ActionRevokeToken, op); err != nil {
		return Token{}, err
	}
	if _, err := b.api.PaymentTokens.Revoke(ctx, tokenID); err != nil {
		e := b.fail(op, true, err)
		if KindOf(e) == KindUnavailable {
			if t, rerr := b.GetToken(ctx, tokenID); rerr == nil && t.Status == TokenRevoked {
				return t, nil
			}
		}
		return Token{}, e
	}
	return b.GetToken(ctx, tokenID)
}

// SetStickerActive switches a sticker on or off. Setting the state it
// already has is harmless, so a lost answer is simply re-read.
func (b *overV2) SetStickerActive(ctx context.Context, stickerID string, active bool) (Sticker, error) {
	op := opf("switch sticker %s %s", stickerID, map[bool]string{true: "on", false: "off"}[active])
	if err := b.guard(ActionToggleSticker, op); err != nil {
		return Sticker{}, err
	}
	if _, err := b.api.Stickers.Update(ctx, stickerID, active); err != nil {
		return Sticker{}, b.fail(op, true, err)
	}
	return b.GetSticker(ctx, stickerID)
}

func (b *overV2) CreateInvoiceLink(ctx context.Context, r InvoiceLinkRequest) (InvoiceLink, error) {
	op := opf("create an invoice link for %s", r.Amount)
	if err := b.guard(ActionCreateInvoice, op); err != nil {
		return InvoiceLink{}, err
	}
	amount := r.Amount
	req := &v2.InvoiceRequest{
		MerchantID: r.MerchantID, DualMode: r.DualMode, Amount: &amount,
		Invoice: &v2.Invoice{Description: r.Description, OrderNo: r.OrderNo, Expires: r.Expires},
	}
	if r.ReturnURL != "" || r.CallbackURL != "" {
		req.Protocol = &v2.Protocol{ReturnURL: r.ReturnURL, CallbackURL: r.CallbackURL}
	}
	if r.CustomerEmail != "" || r.CustomerPhone != "" {
		req.Customer = &v2.Customer{Email: r.CustomerEmail, Phone: r.CustomerPhone}
	}
	out, _, err := b.api.Invoices.Create(ctx, req, &v2.CreateOptions{IdempotencyKey: r.IdempotencyKey})
	if err != nil {
		return InvoiceLink{}, b.fail(op, true, err)
	}
	return InvoiceLink{PaymentID: out.PaymentID, URL: out.URL}, nil
}

func (b *overV2) CreateSticker(ctx context.Context, r StickerRequest) (Sticker, error) {
	op := opf("create sticker %q", r.Description)
	if err := b.guard(ActionCreateSticker, op); err != nil {
		return Sticker{}, err
	}
	kind := r.StickerType
	if kind == "" {
		kind = "Sbp"
	}
	amount := r.Amount
	s, resp, err := b.api.Stickers.Create(ctx, &v2.StickerRequest{
		MerchantID: r.MerchantID, StickerType: kind, Cashlink: r.Cashlink, Description: r.Description,
		ProductCode: r.ProductCode, PaymentPurpose: r.PaymentPurpose, Amount: &amount, CallbackURL: r.CallbackURL,
	}, &v2.CreateOptions{IdempotencyKey: r.IdempotencyKey})
	if err != nil {
		return Sticker{}, b.fail(op, true, err)
	}
	out := stickerFromV2(s, resp.Body)
	out.MerchantID = r.MerchantID
	return out, nil
}

func (b *overV2) CreateTokenizationLink(ctx context.Context, r TokenizationLinkRequest) (TokenizationLink, error) {
	op := "create a tokenization link"
	if err := b.guard(ActionCreateTokenization, op); err != nil {
		return TokenizationLink{}, err
	}
	req := &v2.TokenizationRequest{
		MerchantID: r.MerchantID, Type: "recurring", Purpose: r.Purpose, PaymentMethod: "bankcard",
		CallbackURL: r.CallbackURL, ReturnURL: r.ReturnURL,
	}
	if r.CustomerAccount != "" || r.CustomerEmail != "" {
		req.Customer = &v2.Customer{Account: r.CustomerAccount, Email: r.CustomerEmail}
	}
	out, _, err := b.api.Tokenization.Create(ctx, req, &v2.CreateOptions{IdempotencyKey: r.IdempotencyKey})
	if err != nil {
		return TokenizationLink{}, b.fail(op, true, err)
	}
	return TokenizationLink{TokenID: out.TokenID, URL: out.URL}, nil
}

// --- conversions ---------------------------------------------------------

func paymentFromV2List(it v2.PaymentListItem) Payment {
	return Payment{
		Source: V2, ID: it.ID, MerchantID: it.MerchantID, Created: it.Created, Completed: it.Completed,
		Status: PaymentStatus(it.Status), ResultCode: string(it.ResultCode), Amount: it.Amount,
		OrderNo: it.Invoice.OrderNo, Description: it.Invoice.Description, InvoiceExpires: it.Invoice.Expires,
		PaymentMethod: it.PaymentData.PaymentMethod, InstrumentTitle: it.PaymentData.PaymentInstrumentTitle,
	}
}

func paymentFromV2(p *v2.Payment, raw []byte) Payment {
	out := Payment{
		Source: V2, Detailed: true, ID: p.ID, MerchantID: p.MerchantID, Created: p.Created, Completed: p.Completed,
		Status: PaymentStatus(p.Status), ResultCode: string(p.ResultCode), Message: p.Message, TestMode: p.TestMode,
		Amount: p.Amount, OrderNo: p.Invoice.OrderNo, Description: p.Invoice.Description,
		InvoiceExpires: p.Invoice.Expires, InvoiceParams: p.Invoice.Params, CustomerIP: p.Customer.IP,
		PaymentMethod: p.PaymentData.PaymentMethod, InstrumentTitle: p.PaymentData.PaymentInstrumentTitle,
		Agreement: p.PaymentData.Agreement, Card: cardFromV2(p.PaymentData.CardInfo),
		Confirmation: confirmationFromV2(p.Confirmation), Raw: raw,
	}
	if t := p.PaymentToken; t != nil {
		out.Token = &TokenRef{ID: t.ID, Title: t.Title, Expires: t.Expires}
	}
	return out
}

func refundFromV2(r *v2.Refund, raw []byte) Refund {
	return Refund{
		Source: V2, ID: r.ID, PaymentID: r.PaymentID, Created: r.Created, Amount: r.Amount,
		Status: RefundStatus(r.Status), ResultCode: string(r.ResultCode), Raw: raw,
	}
}

func tokenFromV2(t *v2.PaymentToken, raw []byte) Token {
	return Token{
		Source: V2, ID: t.ID, Status: TokenStatus(t.Status), ResultCode: string(t.ResultCode), Title: t.Title,
		Expires: t.Expires, Card: cardFromV2(t.CardInfo), Confirmation: confirmationFromV2(t.Confirmation), Raw: raw,
	}
}

func stickerFromV2(s *v2.Sticker, raw []byte) Sticker {
	return Sticker{
		Source: V2, ID: s.ID, StickerType: s.StickerType, Cashlink: s.Cashlink, Description: s.Description,
		ProductCode: s.ProductCode, PaymentPurpose: s.PaymentPurpose, Amount: s.Amount,
		Status: string(s.Status), Payload: s.Payload, Raw: raw,
	}
}

func cardFromV2(c *v2.CardInfo) *CardInfo {
	if c == nil {
		return nil
	}
	return &CardInfo{Brand: c.Brand, Issuer: c.Issuer, Country: c.Country, Type: c.Type, Category: c.Category}
}

func confirmationFromV2(c *v2.Confirmation) *Confirmation {
	if c == nil {
		return nil
	}
	return &Confirmation{
		Type: string(c.Type), PaymentURL: c.PaymentURL, UniversalLink: c.UniversalLink, Instruction: c.Instruction,
		MaskedPhone: c.MaskedPhone, MethodURL: c.MethodURL, TransactionID: c.TransactionID,
		AcsURL: c.ACSURL, CReq: c.CReq, PAReq: c.PAReq,
	}
}

// ResultMeaning explains an authorization result code in words.
func ResultMeaning(code string) string { return v2.ResultCodeMeaning(v2.ResultCode(code)) }

// --- what v2 cannot do -----------------------------------------------------

const needV1 = "transfers, registers and documents exist only in the legacy interface; set PAYDASH_V1_LOGIN and PAYDASH_V1_PASSWORD"

func (b *overV2) ListTransfers(context.Context, DayQuery) ([]Transfer, error) {
	return nil, unsupported("list transfers", needV1)
}
func (b *overV2) GetRegister(_ context.Context, id string) (Register, error) {
	return Register{}, unsupported(opf("read register %s", id), needV1)
}
func (b *overV2) ListDocuments(context.Context, DayQuery) ([]Document, error) {
	return nil, unsupported("list documents", needV1)
}
func (b *overV2) GetDocument(_ context.Context, id string) (DocumentContent, error) {
	return DocumentContent{}, unsupported(opf("download document %s", id), needV1)
}

// Probe asks for an empty stretch of the first merchant's payments: it costs
// the service nothing and tells a wrong token at once. Whether a token may
// write shows only on the first write (the spec has no way to ask). A
// failure names what to look at: the token only when the service refused
// it, the network when no readable answer came.
func (b *overV2) Probe(ctx context.Context) error {
	if len(b.desc.MerchantIDs) == 0 {
		return &Error{Kind: KindInvalid, Op: "open the dashboard", Interface: V2,
			Message: "no merchant is configured; give --merchant or merchants in the config file"}
	}
	end := b.ServiceNow()
	_, _, err := b.api.Payments.List(ctx, v2.ListParams{
		MerchantID: b.desc.MerchantIDs[0], Start: end.Add(-time.Second), End: end})
	if err != nil {
		return b.fail(probeOp(fromV2("", err).Kind, "check the v2 token"), false, err)
	}
	return nil
}

// probeOp is the op of a Probe failure: "reach the service" when no
// readable answer came, else credentials (what to check).
func probeOp(k ErrorKind, credentials string) string {
	if k == KindUnavailable || k == KindMalformed {
		return "reach the service"
	}
	return credentials
}

// CheckRefund finds out what became of a refund whose answer was lost.
// Through v2 it asks again with the same Idempotency-Key and body: the
// service answers with the refund it made under the key, or makes it now if
// the first request never arrived, so exactly one exists either way. A
// refund sent through v1 cannot be looked up here.
//
// A replay is the first answer as it was (the Stripe model, which the
// sandbox follows: sandbox doc.go, "Tolerance and bounds"): a refund made
// an hour ago still says Pending in it even if it has settled since. So the
// replay only says which refund the key made; its state now is read with a
// GET. If that read fails, the replayed refund is still the answer: it
// exists, its state may be old.
func (b *overV2) CheckRefund(ctx context.Context, r RefundRequest, via Interface) (Refund, bool, error) {
	op := opf("check refund %s of payment %s", r.Amount, r.PaymentID)
	// Sent again without a key, it would be a second refund.
	if err := cannotCheckRefund(op, V2, via, r.IdempotencyKey,
		"it was sent without an idempotency key, so it cannot be asked for again"); err != nil {
		return Refund{}, false, err
	}
	ref, err := b.RefundPayment(ctx, r)
	if err != nil {
		return Refund{}, false, err
	}
	if now, err := b.GetRefund(ctx, ref.ID); err == nil {
		return now, true, nil
	}
	return ref, true, nil
}
