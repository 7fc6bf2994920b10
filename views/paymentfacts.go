package views

import (
	"cmp"
	"context"
	"sync"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
)

// PaymentFacts is what paydash has learned of payments during this run, by
// payment id: the order number and the customer. The Payments
// tab notes the payments it loads; the Refunds tab shows a refund's
// payment's facts and reads a payment it does not know (factReads). Tabs
// built from one Deps share it (Deps.Facts); with none, each tab keeps its
// own. Only Update and View touch it (the reads' answers come back as
// messages), the mutex keeps it safe all the same.
type PaymentFacts struct {
	mu sync.RWMutex
	m  map[string]paymentFact
}

// paymentFact is what is known of one payment.
type paymentFact struct {
	order    string
	customer string // the e-mail or identifier the merchant gave, else the phone
	// legacy: the payment was seen with the legacy interface's view, the
	// only one that names the customer; without it customer is unknown.
	legacy bool
}

// maxPaymentFacts bounds the memo; past it, it starts again (the tabs read
// what they need again).
const maxPaymentFacts = 500_000

// NewPaymentFacts makes an empty memo, for the tabs to share (Deps.Facts).
func NewPaymentFacts() *PaymentFacts { return &PaymentFacts{m: map[string]paymentFact{}} }

// notePayments remembers the facts of payments read; a nil memo notes
// nothing.
func (f *PaymentFacts) notePayments(ps []backend.Payment) {
	if f == nil || len(ps) == 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range ps {
		f.noteLocked(p.ID, p)
	}
}

// noteAs remembers payment p's facts under id (the id it was asked by).
func (f *PaymentFacts) noteAs(id string, p backend.Payment) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.noteLocked(id, p)
}

func (f *PaymentFacts) noteLocked(id string, p backend.Payment) {
	if id == "" {
		return
	}
	if len(f.m) >= maxPaymentFacts {
		clear(f.m)
	}
	old := f.m[id]
	nf := paymentFact{order: cmp.Or(p.OrderNo, old.order)}
	if p.V1 != nil {
		nf.order = cmp.Or(p.OrderNo, p.V1.SiteInvoiceID, old.order)
		idf, phone := customer(p)
		nf.customer, nf.legacy = cmp.Or(idf, phone), true
	} else if old.legacy {
		// A list row without the legacy view says nothing of the
		// customer: keep what a read learned.
		nf.customer, nf.legacy = old.customer, true
	}
	f.m[id] = nf
}

// get is what is known of payment id; false when it was never seen.
func (f *PaymentFacts) get(id string) (paymentFact, bool) {
	if f == nil || id == "" {
		return paymentFact{}, false
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	pf, ok := f.m[id]
	return pf, ok
}

// maxFactReads bounds the payment reads the Refunds tab has out at once.
const maxFactReads = 4

// factReads reads, for a list of refunds, the payments it does not know
// yet: only those of the refunds on screen (the tab asks), at most
// maxFactReads at a time, each at most once per generation. A failed read
// is remembered, so that it is not tried again on every key; retryFailed
// (a refresh) forgets the failures. reset (a new scope) drops everything
// out: the reads run under the list's context, which the scope change
// cancels, and their answers carry the stamp of the scope's.
type factReads struct {
	scopes reader // only its stamps: the reads run under the list's context
	src    paymentReader
	facts  *PaymentFacts
	// withCustomer: the legacy interface is configured, so a payment
	// known only from a list without its legacy view is read for its
	// customer.
	withCustomer bool

	asked   map[string]bool     // payment ids read or being read; true once the read failed
	out     int                 // reads not yet answered
	refunds map[string][]string // payment id → the loaded refunds of it, to redraw
}

// paymentReader is what factReads asks of the backend.
type paymentReader interface {
	GetPayment(ctx context.Context, id string) (backend.Payment, error)
}

// paymentFactMsg is the answer of one payment read.
type paymentFactMsg struct {
	stamp stamp // the scope's it was asked in
	id    string
	p     backend.Payment
	err   error
}

func newFactReads(src paymentReader, facts *PaymentFacts, withCustomer bool) *factReads {
	r := &factReads{src: src, facts: facts, withCustomer: withCustomer}
	r.reset()
	return r
}

// reset forgets the reads of the last scope; their answers will be dropped.
func (r *factReads) reset() {
	r.scopes.stop()
	r.asked = map[string]bool{}
	r.refunds = map[string][]string{}
	r.out = 0
}

// retryFailed forgets the reads that failed, so that they may be tried again.
func (r *factReads) retryFailed() {
	for id, failed := range r.asked {
		if failed {
			delete(r.asked, id)
		}
	}
}

// noteRows remembers which loaded refunds belong to which payment.
func (r *factReads) noteRows(rows []backend.Refund) {
	for _, x := range rows {
		if x.PaymentID == "" {
			continue
		}
		ids := r.refunds[x.PaymentID]
		found := false
		for _, id := range ids {
			if id == x.ID {
				found = true
				break
			}
		}
		if !found {
			r.refunds[x.PaymentID] = append(ids, x.ID)
		}
	}
}

// free is how many more reads may start now.
func (r *factReads) free() int {
	if r.src == nil {
		return 0
	}
	return maxFactReads - r.out
}

// wanted reports whether payment id should be read: not known (or known
// without its customer when that can be learned), and not asked yet.
func (r *factReads) wanted(id string) bool {
	if id == "" {
		return false
	}
	if _, asked := r.asked[id]; asked {
		return false
	}
	pf, ok := r.facts.get(id)
	return !ok || (r.withCustomer && !pf.legacy)
}

// read starts reading the payments ids (at most free of them) under ctx.
func (r *factReads) read(ctx context.Context, ids []string) tea.Cmd {
	var cmds []tea.Cmd
	for _, id := range ids {
		if r.free() <= 0 {
			break
		}
		if !r.wanted(id) {
			continue
		}
		r.asked[id] = false
		r.out++
		st, src := r.scopes.stamp(), r.src
		cmds = append(cmds, func() tea.Msg {
			p, err := src.GetPayment(ctx, id)
			return paymentFactMsg{stamp: st, id: id, p: p, err: err}
		})
	}
	return tea.Batch(cmds...)
}

// update takes a read's answer: the facts are noted and the refunds of
// the payment returned, for the tab to redraw. ok is false for any other
// message.
func (r *factReads) update(msg tea.Msg) (redraw []string, ok bool) {
	m, mine := msg.(paymentFactMsg)
	if !mine || !r.scopes.owns(m.stamp) {
		return nil, false
	}
	if !r.scopes.fresh(m.stamp) {
		return nil, true // a scope since left
	}
	r.out = max(r.out-1, 0)
	switch {
	case m.err != nil && cancelled(m.err):
		delete(r.asked, m.id)
		return nil, true
	case m.err != nil:
		r.asked[m.id] = true
		return nil, true
	}
	r.facts.noteAs(m.id, m.p)
	return r.refunds[m.id], true
}
