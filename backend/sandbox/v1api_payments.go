package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"

	"paydash/backend/money"
)

// The v1 operations on payments and refunds: getting, listing, refunding,
// confirming and cancelling (v1api.go dispatches them).

func (s *Server) v1GetPayment(c *v1Call) {
	if p, ok := s.payment(c); ok {
		paymentAnswer(c, &p)
	}
}

func (s *Server) v1GetPaymentByInvoice(c *v1Call) {
	inv, ok := c.require("invoiceID")
	if !ok {
		return
	}
	site, ok := s.site(c)
	if !ok {
		return
	}
	sites := []string{site}
	if site == "" {
		sites = s.store.MerchantIDs()
	}
	var (
		best  Payment
		found bool
	)
	for _, id := range sites {
		p, err := s.store.PaymentByOrderNo(id, inv)
		if err == nil && (!found || keyOf(&best).less(keyOf(&p))) {
			best, found = p, true
		}
	}
	if !found {
		c.fail(v1ErrNotFound, "no payment with invoiceID %q", inv)
		return
	}
	paymentAnswer(c, &best)
}

// v1States maps a v1 State to the statuses it shows.
var v1States = map[string][]PaymentStatus{
	"INITIATED":  {PaymentPending},
	"PROCESSING": {PaymentConfirmation},
	"HOLD":       {PaymentAuthorized},
	"COMPLETE":   {PaymentSettled},
	"CANCELLED":  {PaymentCancelled, PaymentRejected},
}

// v1ListLimit is the most items a list answer holds (then Overflow).
const v1ListLimit = 1000

func (s *Server) v1ListPayments(c *v1Call) {
	if !c.account() {
		return
	}
	site, ok := s.site(c)
	if !ok {
		return
	}
	start, end, ok := c.period()
	if !ok {
		return
	}
	f := PaymentFilter{Start: start, End: end, OrderNo: c.get("invoiceID"), Limit: v1ListLimit}
	if site != "" {
		f.MerchantIDs = []string{site}
	}
	if st := c.get("state"); st != "" {
		if f.Statuses = v1States[strings.ToUpper(st)]; f.Statuses == nil {
			c.fail(v1ErrUnknown, "state %q is not one of INITIATED, PROCESSING, COMPLETE, CANCELLED, HOLD", st)
			return
		}
	}
	list, overflow := s.store.FilterPayments(f)
	writeV1List(c, "Payments", overflow, len(list), func(i int) any { return renderV1Payment(&list[i]) })
}

func (s *Server) v1ListRefunds(c *v1Call) {
	if !c.account() {
		return
	}
	start, end, ok := c.period()
	if !ok {
		return
	}
	f := RefundFilter{Start: start, End: end, ExternalID: c.get("externalID"), Limit: v1ListLimit}
	if id := c.get("paymentID"); id != "" {
		if _, err := s.store.GetPayment(id); err != nil {
			c.fail(v1ErrNotFound, "payment %s not found", id)
			return
		}
		f.PaymentID = id
	}
	list, overflow := s.store.FilterRefunds(f)
	writeV1List(c, "Refunds", overflow, len(list), func(i int) any { return renderV1Refund(&list[i]) })
}

// v1ListBytes bounds a list answer in bytes as v1ListLimit does in items:
// the newest matches that fit, and Overflow, so the client narrows the
// period as it does at 1,000 items. Tests lower it.
var v1ListBytes atomic.Int64

func init() { v1ListBytes.Store(4 << 20) }

// writeV1List writes {"ErrorCode":0,"Response":{"Overflow":...,"<member>":[...]}}
// as json.Marshal would write the v1Envelope of a v1PaymentList (or its
// like for refunds), holding the first of n items (newest first) that fit
// in v1ListBytes.
func writeV1List(c *v1Call, member string, overflow bool, n int, render func(i int) any) {
	budget := int(v1ListBytes.Load())
	items := make([][]byte, 0, n)
	size := 0
	for i := range n {
		b, err := json.Marshal(render(i))
		if err != nil {
			writeV1JSON(c.w, http.StatusInternalServerError, &v1Envelope{ErrorCode: v1ErrUnknown, Message: "could not render the answer"})
			return
		}
		if size+len(b)+1 > budget-128 {
			overflow = true
			break
		}
		size += len(b) + 1
		items = append(items, b)
	}
	var buf bytes.Buffer
	buf.Grow(size + 128)
	buf.WriteString(`{"ErrorCode":0,"Response":{"Overflow":`)
	buf.WriteString(strconv.FormatBool(overflow))
	buf.WriteString(`,"` + member + `":[`)
	buf.Write(bytes.Join(items, []byte{','}))
	buf.WriteString(`]}}`)
	c.w.Header().Set("Content-Type", "application/json")
	c.w.WriteHeader(http.StatusOK)
	_, _ = c.w.Write(buf.Bytes())
}

func (s *Server) v1RefundPayment(c *v1Call) {
	p, raw, v, ok := s.paymentAndAmount(c)
	if !ok {
		return
	}
	check := func(p *Payment) bool {
		if p.Status != PaymentSettled {
			stateRefusal(c, p, "COMPLETE", "refunded")
			return false
		}
		if rest := p.Remaining(); v > rest {
			c.fail(v1ErrAmount, "refund of %s %s is more than remains to refund of payment %s: %s %s",
				raw, p.Amount.Currency, p.ID, v1Money(rest, p.Amount.Currency), p.Amount.Currency)
			return false
		}
		return true
	}
	if !check(&p) {
		return
	}
	ref, err := s.store.CreateRefund(RefundRequest{PaymentID: p.ID, Amount: &money.Amount{Value: v}, ExternalID: c.get("externalID")})
	if err != nil {
		s.refusedMove(c, p.ID, err, check)
		return
	}
	vr := renderV1Refund(&ref)
	c.ok(&v1Envelope{Refund: &vr})
}

func (s *Server) v1ConfirmPayment(c *v1Call) {
	p, raw, v, ok := s.paymentAndAmount(c)
	if !ok {
		return
	}
	check := func(p *Payment) bool {
		if p.Status != PaymentAuthorized {
			stateRefusal(c, p, "HOLD", "confirmed")
			return false
		}
		if v > p.Amount.Value {
			c.fail(v1ErrAmount, "cannot confirm %s %s: only %s %s is held", raw, p.Amount.Currency,
				v1Money(p.Amount.Value, p.Amount.Currency), p.Amount.Currency)
			return false
		}
		return true
	}
	if !check(&p) {
		return
	}
	done, err := s.store.CapturePayment(p.ID, &money.Amount{Value: v})
	if err != nil {
		s.refusedMove(c, p.ID, err, check)
		return
	}
	paymentAnswer(c, &done)
}

func (s *Server) v1CancelPayment(c *v1Call) {
	p, ok := s.payment(c)
	if !ok {
		return
	}
	code := 0
	if e := c.get("error"); e != "" {
		n, err := strconv.Atoi(e)
		if err != nil || !V1FailureCode(n) {
			c.fail(v1ErrUnknown, "error %q is not a failure code of the v1 interface (-1, -2, -6 ... -31)", e)
			return
		}
		code = n
	}
	check := func(p *Payment) bool {
		if p.Status != PaymentAuthorized {
			stateRefusal(c, p, "HOLD", "cancelled")
			return false
		}
		return true
	}
	if !check(&p) {
		return
	}
	done, err := s.store.CancelPaymentWithCode(p.ID, code)
	if err != nil {
		s.refusedMove(c, p.ID, err, check)
		return
	}
	paymentAnswer(c, &done)
}

// paymentAndAmount reads the payment of a refund or a confirmation and its
// amount parameter, in the payment's currency; raw is the parameter as
// given, for the messages.
func (s *Server) paymentAndAmount(c *v1Call) (p Payment, raw string, v money.Decimal, ok bool) {
	if p, ok = s.payment(c); !ok {
		return p, "", 0, false
	}
	if raw, ok = c.require("amount"); !ok {
		return p, "", 0, false
	}
	v, ok = c.amount(raw, p.Amount.Currency)
	return p, raw, v, ok
}

// refusedMove answers a move on payment id the store refused with err: the
// payment changed in between, so the answer is check's for its state now,
// or err when its state still allows the move.
func (s *Server) refusedMove(c *v1Call, id string, err error, check func(*Payment) bool) {
	if now, gerr := s.store.GetPayment(id); gerr == nil && !check(&now) {
		return
	}
	c.fail(v1ErrUnknown, "%s", err.Error())
}
