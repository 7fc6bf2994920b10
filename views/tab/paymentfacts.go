package tab

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
// payment's facts and reads a payment it does not know (FactReads). Tabs
// built from one Deps share it (Deps.Facts); with none, each tab keeps its
// own. Only Update and View touch it (the reads' answers come back as
// messages), the mutex keeps it safe all the same.
type PaymentFacts struct {
	mu sync.RWMutex
	m  map[string]PaymentFact
}

// PaymentFact is what is known of one payment.
type PaymentFact struct {
	Order    string
	Customer string // the e-mail or identifier the merchant gave, else the phone
	// legacy: the payment was seen with the legacy interface's view, the
	// only one that names the customer; without it customer is unknown.
	legacy bool
}

// maxPaymentFacts bounds the memo; past it, it starts again (the tabs read
// what they need again).
const maxPaymentFacts = 500_000

// NewPaymentFacts makes an empty memo, for the tabs to share (Deps.Facts).
func NewPaymentFacts() *PaymentFacts { return &PaymentFacts{m: map[string]PaymentFact{}} }

// NotePayments remembers the facts of payments read; a nil memo notes
// nothing.
func (f *PaymentFacts) NotePayments(ps []backend.Payment) {
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
	nf := PaymentFact{Order: cmp.Or(p.OrderNo, old.Order)}
	if p.V1 != nil {
		nf.Order = cmp.Or(p.OrderNo, p.V1.SiteInvoiceID, old.Order)
		idf, phone := Customer(p)
		nf.Customer, nf.legacy = cmp.Or(idf, phone), true
	} else if old.legacy {
		// A list row without the legacy view says nothing of the
		// Customer: keep what a read learned.
		nf.Customer, nf.legacy = old.Customer, true
	}
	f.m[id] = nf
}

// Get is what is known of payment id; false when it was never seen.
func (f *PaymentFacts) Get(id string) (PaymentFact, bool) {
	if f == nil || id == "" {
		return PaymentFact{}, false
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	pf, ok := f.m[id]
	return pf, ok
}

// MaxFactReads bounds the payment reads the Refunds tab has out at once.
const MaxFactReads = 4

// FactReads reads, for a list of refunds, the payments it does not know
// yet: only those of the refunds on screen (the tab asks), at most
// maxFactReads at a time, each at most once per generation. A failed read
// is remembered, so that it is not tried again on every key; retryFailed
// (a refresh) forgets the failures. reset (a new scope) drops everything
// out: the reads run under the list's context, which the scope change
// cancels, and their answers carry the stamp of the scope's.
type FactReads struct {
	Scopes Reader // only its stamps: the reads run under the list's context
	src    PaymentReader
	facts  *PaymentFacts
	// withCustomer: the legacy interface is configured, so a payment
	// known only from a list without its legacy view is read for its
	// customer.
	withCustomer bool

	asked   map[string]bool     // payment ids read or being read; true once the read failed
	Out     int                 // reads not yet answered
	refunds map[string][]string // payment id → the loaded refunds of it, to redraw
}

// PaymentReader is what FactReads asks of the backend.
type PaymentReader interface {
	GetPayment(ctx context.Context, id string) (backend.Payment, error)
}

// PaymentFactMsg is the answer of one payment read.
type PaymentFactMsg struct {
	Stamp Stamp // the scope's it was asked in
	ID    string
	P     backend.Payment
	err   error
}

func NewFactReads(src PaymentReader, facts *PaymentFacts, withCustomer bool) *FactReads {
	r := &FactReads{src: src, facts: facts, withCustomer: withCustomer}
	r.Reset()
	return r
}

// Reset forgets the reads of the last scope; their answers will be dropped.
func (r *FactReads) Reset() {
	r.Scopes.Stop()
	r.asked = map[string]bool{}
	r.refunds = map[string][]string{}
	r.Out = 0
}

// RetryFailed forgets the reads that failed, so that they may be tried again.
func (r *FactReads) RetryFailed() {
	for id, failed := range r.asked {
		if failed {
			delete(r.asked, id)
		}
	}
}

// NoteRows remembers which loaded refunds belong to which payment.
func (r *FactReads) NoteRows(rows []backend.Refund) {
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

// Free is how many more reads may start now.
func (r *FactReads) Free() int {
	if r.src == nil {
		return 0
	}
	return MaxFactReads - r.Out
}

// Wanted reports whether payment id should be read: not known (or known
// without its customer when that can be learned), and not asked yet.
func (r *FactReads) Wanted(id string) bool {
	if id == "" {
		return false
	}
	if _, asked := r.asked[id]; asked {
		return false
	}
	pf, ok := r.facts.Get(id)
	return !ok || (r.withCustomer && !pf.legacy)
}

// Read starts reading the payments ids (at most free of them) under ctx.
func (r *FactReads) Read(ctx context.Context, ids []string) tea.Cmd {
	var cmds []tea.Cmd
	for _, id := range ids {
		if r.Free() <= 0 {
			break
		}
		if !r.Wanted(id) {
			continue
		}
		r.asked[id] = false
		r.Out++
		st, src := r.Scopes.Stamp(), r.src
		cmds = append(cmds, func() tea.Msg {
			p, err := src.GetPayment(ctx, id)
			return PaymentFactMsg{Stamp: st, ID: id, P: p, err: err}
		})
	}
	return tea.Batch(cmds...)
}

// Update takes a read's answer: the facts are noted and the refunds of
// the payment returned, for the tab to redraw. ok is false for any other
// message.
func (r *FactReads) Update(msg tea.Msg) (redraw []string, ok bool) {
	m, mine := msg.(PaymentFactMsg)
	if !mine || !r.Scopes.Owns(m.Stamp) {
		return nil, false
	}
	if !r.Scopes.Fresh(m.Stamp) {
		return nil, true // a scope since left
	}
	r.Out = max(r.Out-1, 0)
	switch {
	case m.err != nil && Cancelled(m.err):
		delete(r.asked, m.ID)
		return nil, true
	case m.err != nil:
		r.asked[m.ID] = true
		return nil, true
	}
	r.facts.noteAs(m.ID, m.P)
	return r.refunds[m.ID], true
}
