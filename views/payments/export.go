package payments

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/views/tab"
)

// payment is the row the export writes, short for the table below.
type payment = backend.Payment

// paymentFields are a payment's fields, as its pane shows them: the
// export's columns, in order. refunded holds what is known to be refunded
// of a payment (the one whose refunds the pane read); the list does not
// carry it for the others.
func paymentFields(refunded map[string]money.Amount) []tab.ExportField[payment] {
	type V1 = backend.PaymentV1View
	type Card = backend.CardInfo
	return []tab.ExportField[payment]{
		{Name: "id", Value: func(p payment) string { return p.ID }, Text: true},
		{Name: "status", Value: func(p payment) string { return string(p.Status) }, Text: true},
		{Name: "amount", Value: func(p payment) string { return tab.ExactAmount(p.Amount) }},
		{Name: "currency", Value: func(p payment) string { return p.Amount.Currency }, Text: true},
		{Name: "captured", Value: capturedAmount},
		{Name: "refunded", Value: refundedAmount(refunded)},
		{Name: "created_utc", Value: func(p payment) string { return tab.UTCTime(p.Created) }},
		{Name: "completed_utc", Value: func(p payment) string { return tab.UTCTime(p.Completed) }},
		{Name: "updated_utc", Value: func(p payment) string { return tab.UTCTime(p.Updated) }},
		{Name: "order_no", Value: func(p payment) string { return p.OrderNo }, Text: true},
		{Name: "description", Value: func(p payment) string { return p.Description }, Text: true},
		{Name: "invoice_expires_utc", Value: func(p payment) string { return tab.UTCTime(p.InvoiceExpires) }},
		{Name: "invoice_params", Value: func(p payment) string { return joinParams(p.InvoiceParams) }, Text: true},
		{Name: "customer_ip", Value: func(p payment) string { return p.CustomerIP }, Text: true},
		{Name: "customer_identifier", Value: ofV1(func(v *V1) string { return v.UserIdentifier }), Text: true},
		{Name: "customer_phone", Value: ofV1(func(v *V1) string { return v.UserPhoneNumber }), Text: true},
		{Name: "payment_method", Value: func(p payment) string { return p.PaymentMethod }, Text: true},
		{Name: "instrument", Value: func(p payment) string { return p.InstrumentTitle }, Text: true},
		{Name: "card_brand", Value: ofCard(func(c *Card) string { return c.Brand }), Text: true},
		{Name: "card_issuer", Value: ofCard(func(c *Card) string { return c.Issuer }), Text: true},
		{Name: "card_country", Value: ofCard(func(c *Card) string { return c.Country }), Text: true},
		{Name: "card_type", Value: ofCard(func(c *Card) string { return c.Type }), Text: true},
		{Name: "card_category", Value: ofCard(func(c *Card) string { return c.Category }), Text: true},
		{Name: "agreement", Value: func(p payment) string { return p.Agreement }, Text: true},
		{Name: "token_id", Value: tokenID, Text: true},
		{Name: "merchant_id", Value: func(p payment) string { return p.MerchantID }, Text: true},
		{Name: "result_code", Value: func(p payment) string { return p.ResultCode }, Text: true},
		{Name: "result_meaning", Value: resultMeaning, Text: true},
		{Name: "message", Value: func(p payment) string { return p.Message }, Text: true},
		{Name: "confirmation", Value: ofConfirmation(func(c *backend.Confirmation) string { return c.Type }), Text: true},
		{Name: "payment_url", Value: ofConfirmation(func(c *backend.Confirmation) string { return c.PaymentURL }), Text: true},
		{Name: "test_mode", Value: testMode},
		{Name: "read_through", Value: func(p payment) string { return string(p.Source) }},
		{Name: "v1_state", Value: ofV1(func(v *V1) string { return v.State }), Text: true},
		{Name: "v1_paid_amount", Value: ofV1(v1PaidAmount)},
		{Name: "v1_error_code", Value: ofV1(v1ErrorCode)},
	}
}

// ofV1, ofCard and ofConfirmation read a field of a part of the payment
// that may be missing: "" then.
func ofV1(get func(*backend.PaymentV1View) string) func(payment) string {
	return func(p payment) string { return ifSet(p.V1, get) }
}

func ofCard(get func(*backend.CardInfo) string) func(payment) string {
	return func(p payment) string { return ifSet(p.Card, get) }
}

func ofConfirmation(get func(*backend.Confirmation) string) func(payment) string {
	return func(p payment) string { return ifSet(p.Confirmation, get) }
}

func ifSet[S any](part *S, get func(*S) string) string {
	if part == nil {
		return ""
	}
	return get(part)
}

// capturedAmount is the amount of a settled payment, "" for the others.
func capturedAmount(p payment) string {
	if p.Status != backend.PaymentSettled {
		return ""
	}
	return tab.ExactAmount(p.Amount)
}

// refundedAmount is what is known to be refunded of a payment, "" when it
// is not known.
func refundedAmount(refunded map[string]money.Amount) func(payment) string {
	return func(p payment) string {
		if r, ok := refunded[p.ID]; ok {
			return tab.ExactAmount(r)
		}
		return ""
	}
}

func tokenID(p payment) string {
	return ifSet(p.Token, func(t *backend.TokenRef) string { return t.ID })
}

// resultMeaning is what the v2 interface's result code means; the v1
// codes are its own.
func resultMeaning(p payment) string {
	if p.ResultCode == "" || p.Source != backend.V2 {
		return ""
	}
	return backend.ResultMeaning(p.ResultCode)
}

func testMode(p payment) string {
	if !p.Detailed {
		return "" // the list does not say
	}
	return tab.BoolText(p.TestMode)
}

func v1PaidAmount(v *backend.PaymentV1View) string {
	if v.PaymentAmount.Value.IsZero() && v.PaymentAmount.Currency == "" {
		return ""
	}
	return tab.ExactAmount(v.PaymentAmount)
}

func v1ErrorCode(v *backend.PaymentV1View) string {
	if v.ErrorCode == 0 {
		return ""
	}
	return strconv.Itoa(v.ErrorCode)
}

// joinParams writes an invoice's parameters as "key=value; key=value",
// in the order of their keys.
func joinParams(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	var b strings.Builder
	for i, k := range sortedKeys(m) {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(m[k])
	}
	return b.String()
}

// fullReadLimit is the most payments an export reads in full, one
// request (or two, with both interfaces) each; more are exported with
// what the list carries.
const fullReadLimit = 200

// fullReads is how many payments an export reads at once.
const fullReads = 6

// export is ctrl+s on the Payments tab. A list row carries a part of what
// the pane shows (no customer, no card details): up to fullReadLimit rows
// are read in full first; the refunded amount is known for the payment
// whose refunds the pane read.
func (ps *Payments) export() tea.Cmd {
	refunded := map[string]money.Amount{}
	if p := ps.Pane.Obj; ps.Pane.IsOpen() && ps.refunds.loaded && ps.refunds.err == nil {
		refunded[p.ID], _ = refundable(p, ps.refunds.items)
	}
	spec := tab.ExportSpec[backend.Payment]{Noun: "payments",
		Stem: tab.ExportStem("payments", ps.Scope.MerchantID), Fields: paymentFields(refunded), Now: ps.Deps.TimeNow()}
	toRead := 0
	for _, p := range ps.List.Table.Shown() {
		if !p.Detailed {
			toRead++
		}
	}
	switch {
	case toRead == 0:
	case toRead <= fullReadLimit:
		src := ps.src
		spec.Complete = func(ctx context.Context, rows []backend.Payment) ([]backend.Payment, error) {
			return readInFull(ctx, src, rows)
		}
		spec.How = "each read in full first"
	default:
		spec.How = "with the fields the list carries (customer and card details are read for at most " +
			strconv.Itoa(fullReadLimit) + " rows: filter first)"
	}
	return tab.ExportRows(ps.List, spec)
}

// readInFull reads the payments not yet read in full, fullReads at a
// time, into a copy of rows; the first failure ends it.
func readInFull(ctx context.Context, src paymentSource, rows []backend.Payment) ([]backend.Payment, error) {
	out := slices.Clone(rows)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
		slots = make(chan struct{}, fullReads)
	)
	for i := range out {
		if out[i].Detailed {
			continue
		}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			p, err := src.GetPayment(ctx, out[i].ID)
			if err != nil {
				once.Do(func() {
					first = fmt.Errorf("payment %s could not be read in full: %w", textsafe.Line(out[i].ID, 40), err)
					cancel()
				})
				return
			}
			out[i] = p
		}()
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return out, first
}
