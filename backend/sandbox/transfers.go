package sandbox

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"paydash/backend/money"
)

// Transfers and registers (v1 listTransfers, getTransferRegister), derived
// from the store, never stored: what the service paid out to a site for the
// operations it settled in a period.
//
// An operation is a Settled payment (+ its captured amount, stamped with its
// completion time) or a Success refund (- its amount, stamped when it
// succeeded). A site's operations of one currency and one settlement
// period make one transfer, made transferDelay after the period ends, and
// its register lists them. A payment's TransferAmount is its amount less the
// site's commission (rounded half up to the currency's minor unit); a refund
// carries none; the transfer's amount is the sum of its operations'
// TransferAmount, so everything adds up by construction.
//
// Settlement periods are UTC days, except for the coffee site (1001),
// which was settled monthly before the month the store was seeded in (its
// registers of a whole month are the big ones, ~15,000 operations at the
// default 100,000 payments) and daily since.
//
// Nothing is computed ahead: a register is built when asked, from a ledger
// of settled operations by settlement time (built on first use, then kept up
// to date by the state moves). A transfer exists once its creation time has
// passed on the store clock; by then its period has ended and the settler
// has long stamped every move of the period, so a register answers the same
// every time, however many payments arrive later. (A test that moves a fake
// clock past a period and runs due moves only afterwards could see the
// period's register change in between.)

// transferDelay is how long after its period a transfer is made (plus a few
// minutes per site and currency, so that transfers are not all at one time).
const transferDelay = 6 * time.Hour

// commissionBP is each kind of site's acquiring commission in basis points.
var commissionBP = map[string]int64{"coffee": 210, "books": 240, "travel": 280, "electronics": 190}

const defaultCommissionBP = 240

// Transfer is one payout to a site: a v1 transfer and its register's totals.
type Transfer struct {
	RegisterID     string
	RegisterNumber string // e.g. R-1001-20261120, R-1001-202611 (monthly), R-1003-20261120-EUR
	PaymentOrderID string // 6 digits
	MerchantID     string // the v1 site
	Currency       string
	Monthly        bool
	PeriodFrom     time.Time // the period [PeriodFrom, PeriodTo)
	PeriodTo       time.Time
	Created        time.Time // when the money was sent: transferDelay after PeriodTo

	Count      int           // operations in the register
	Payments   money.Decimal // sum of the payments' amounts
	Refunds    money.Decimal // sum of the refunds' amounts (positive)
	Commission money.Decimal
	Amount     money.Decimal // TransferAmount = Payments - Refunds - Commission
}

// Register is a transfer with its operations, oldest first.
type Register struct {
	Transfer
	Operations []RegisterOperation
}

// RegisterOperation is one line of a register.
type RegisterOperation struct {
	OperationID    string // the payment's id, or the refund's
	PaymentID      string // the payment (refunded payment for a refund)
	Refund         bool
	MerchantID     string
	InvoiceID      string // the payment's order number
	Stamp          time.Time
	Currency       string
	Amount         money.Decimal // OperationAmount: + captured amount, - refund amount
	Commission     money.Decimal
	TransferAmount money.Decimal // Amount - Commission
}

// --- the ledger ---

type ledger struct {
	built bool
	sites map[string]*siteLedger
}

// siteLedger is one site's settled operations, by settlement time then id.
type siteLedger struct {
	payments []*Payment // Settled, by (Completed, seq)
	refunds  []*Refund  // Success, by (Updated, seq)
}

func paymentStamp(p *Payment) sortKey { return sortKey{p.Completed.UnixNano(), p.seq} }
func refundStamp(r *Refund) sortKey   { return sortKey{r.Updated.UnixNano(), r.seq} }

// ledgerReady waits for the seed (the ledger is built right after it) and
// builds the ledger if the seed stopped before.
func (s *Store) ledgerReady() {
	s.awaitComplete()
	s.mu.RLock()
	built := s.ledger.built
	s.mu.RUnlock()
	if built {
		return
	}
	s.mu.lockRaw()
	defer s.unlock()
	if !s.ledger.built {
		s.ledger = s.makeLedger(s.merchants)
	}
}

// makeLedger builds the ledger of the merchants' settled operations (with
// no write under way: under the lock, or while the seed holds writes off).
func (s *Store) makeLedger(merchants []*merchantData) ledger {
	lg := ledger{built: true, sites: make(map[string]*siteLedger, len(merchants))}
	for _, m := range merchants {
		sl := &siteLedger{}
		for _, p := range m.payments {
			if p.Status == PaymentSettled {
				sl.payments = append(sl.payments, p)
			}
		}
		for _, r := range m.refunds {
			if r.Status == RefundSuccess {
				sl.refunds = append(sl.refunds, r)
			}
		}
		slices.SortFunc(sl.payments, func(a, b *Payment) int { return paymentStamp(a).cmp(paymentStamp(b)) })
		slices.SortFunc(sl.refunds, func(a, b *Refund) int { return refundStamp(a).cmp(refundStamp(b)) })
		lg.sites[m.ID] = sl
	}
	return lg
}

// ledgerAddPayment notes a payment that has just become Settled (under the
// write lock).
func (s *Store) ledgerAddPayment(p *Payment) {
	if !s.ledger.built {
		return
	}
	if sl := s.ledger.sites[p.MerchantID]; sl != nil {
		sl.payments = insertBy(sl.payments, p, paymentStamp)
	}
}

// ledgerAddRefund notes a refund that has just succeeded.
func (s *Store) ledgerAddRefund(r *Refund) {
	if !s.ledger.built {
		return
	}
	if sl := s.ledger.sites[r.MerchantID]; sl != nil {
		sl.refunds = insertBy(sl.refunds, r, refundStamp)
	}
}

func insertBy[T any](all []T, x T, key func(T) sortKey) []T {
	k := key(x)
	if n := len(all); n == 0 || !k.less(key(all[n-1])) {
		return append(all, x)
	}
	i, _ := slices.BinarySearchFunc(all, k, func(e T, k sortKey) int { return key(e).cmp(k) })
	return slices.Insert(all, i, x)
}

// between finds [a, b) of the items stamped in [lo, hi) (zero: unbounded).
func between[T any](all []T, key func(T) sortKey, lo, hi time.Time) (int, int) {
	find := func(t int64) int {
		i, _ := slices.BinarySearchFunc(all, t, func(e T, t int64) int { return cmp.Compare(key(e).created, t) })
		return i
	}
	l, h := timeBounds(lo, hi)
	a, b := find(l), find(h)
	return a, max(a, b)
}

// --- periods and ids ---

func dayOf(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func monthOf(t time.Time) time.Time {
	y, m, _ := t.UTC().Date()
	return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
}

// seededAt is the store clock when the store was made (the seed's "now").
func (s *Store) seededAt() time.Time { return s.seedNow }

// monthlyUntil is when a site switched from monthly to daily settlement
// (zero: always daily).
func (s *Store) monthlyUntil(m *merchantData) time.Time {
	if m.Kind != "coffee" {
		return time.Time{}
	}
	return monthOf(s.seededAt())
}

// periodOf is the settlement period holding t: [start, end), monthly or not.
func (s *Store) periodOf(m *merchantData, t time.Time) (start, end time.Time, monthly bool) {
	if u := s.monthlyUntil(m); t.Before(u) {
		start = monthOf(t)
		return start, start.AddDate(0, 1, 0), true
	}
	start = dayOf(t)
	return start, start.AddDate(0, 0, 1), false
}

// ledgerEpoch is day 0 of register ids.
var ledgerEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// A register id is day*32 + site*8 + monthly*4 + currency: the period's
// first day since ledgerEpoch, the site's and the currency's positions (so
// at most 4 sites of 4 currencies each are settled; the sandbox has 4 sites,
// one with 3 currencies). Six digits until 2085. The payment order number
// is a bijection of it onto 100000..999999, so it looks like a bank's.
const (
	maxLedgerSites      = 4
	maxLedgerCurrencies = 4
)

func registerSeq(start time.Time, site, currency int, monthly bool) int64 {
	day := int64(start.Sub(ledgerEpoch) / (24 * time.Hour))
	slot := int64(site*8 + currency)
	if monthly {
		slot += 4
	}
	return day*32 + slot
}

func paymentOrderOf(registerSeq int64) int64 { return 100000 + registerSeq*7919%900000 }

// transferCreated is when the transfer of a period is made.
func transferCreated(end time.Time, site, currency int) time.Time {
	return end.Add(transferDelay + time.Duration(site*7+currency)*time.Minute)
}

func registerNumber(m *merchantData, currency string, start time.Time, monthly bool) string {
	n := "R-" + m.ID + "-" + start.Format("20060102")
	if monthly {
		n = "R-" + m.ID + "-" + start.Format("200601")
	}
	if currency != m.Currencies[0] {
		n += "-" + currency
	}
	return n
}

func (s *Store) newTransfer(mi int, ci int, start, end time.Time, monthly bool) *Transfer {
	m := s.merchants[mi]
	seq := registerSeq(start, mi, ci, monthly)
	cur := m.Currencies[ci]
	return &Transfer{
		RegisterID: strconv.FormatInt(seq, 10), RegisterNumber: registerNumber(m, cur, start, monthly),
		PaymentOrderID: strconv.FormatInt(paymentOrderOf(seq), 10),
		MerchantID:     m.ID, Currency: cur, Monthly: monthly, PeriodFrom: start, PeriodTo: end,
		Created: transferCreated(end, mi, ci),
	}
}

func (t *Transfer) add(op *RegisterOperation) {
	t.Count++
	if op.Refund {
		t.Refunds -= op.Amount
	} else {
		t.Payments += op.Amount
	}
	t.Commission += op.Commission
	t.Amount += op.TransferAmount
}

// --- amounts ---

func minorUnit(currency string) int64 {
	u := int64(1)
	for range money.Scale - min(money.Decimals(currency), money.Scale) {
		u *= 10
	}
	return u
}

// commission is bp basis points of amount, rounded half up to the minor unit.
func commission(amount money.Decimal, bp int64, currency string) money.Decimal {
	if amount <= 0 {
		return 0
	}
	unit := minorUnit(currency)
	den := 10000 * unit
	return money.Decimal((int64(amount)*bp + den/2) / den * unit)
}

func (m *merchantData) commissionBP() int64 {
	if bp, ok := commissionBP[m.Kind]; ok {
		return bp
	}
	return defaultCommissionBP
}

func (s *Store) paymentOp(m *merchantData, p *Payment) RegisterOperation {
	c := commission(p.Captured, m.commissionBP(), p.Amount.Currency)
	return RegisterOperation{
		OperationID: p.ID, PaymentID: p.ID, MerchantID: m.ID, InvoiceID: p.Invoice.OrderNo, Stamp: p.Completed,
		Currency: p.Amount.Currency, Amount: p.Captured, Commission: c, TransferAmount: p.Captured - c,
	}
}

func (s *Store) refundOp(m *merchantData, r *Refund) RegisterOperation {
	op := RegisterOperation{
		OperationID: r.ID, PaymentID: r.PaymentID, Refund: true, MerchantID: m.ID, Stamp: r.Updated,
		Currency: r.Amount.Currency, Amount: -r.Amount.Value, TransferAmount: -r.Amount.Value,
	}
	if p := lookup(s.payments, paymentBase, r.PaymentID); p != nil {
		op.InvoiceID = p.Invoice.OrderNo
	}
	return op
}

// eachOp calls fn for a site's operations stamped in [lo, hi), in stamp
// order (payments before refunds at the same instant), under the read lock.
func (s *Store) eachOp(m *merchantData, lo, hi time.Time, fn func(op *RegisterOperation)) {
	sl := s.ledger.sites[m.ID]
	if sl == nil {
		return
	}
	pa, pb := between(sl.payments, paymentStamp, lo, hi)
	ra, rb := between(sl.refunds, refundStamp, lo, hi)
	var op RegisterOperation // one for all: fn copies what it keeps
	for pa < pb || ra < rb {
		if ra >= rb || pa < pb && !sl.refunds[ra].Updated.Before(sl.payments[pa].Completed) {
			op = s.paymentOp(m, sl.payments[pa])
			pa++
		} else {
			op = s.refundOp(m, sl.refunds[ra])
			ra++
		}
		fn(&op)
	}
}

// opCount is how many operations of any currency a site has in [lo, hi).
func (s *Store) opCount(m *merchantData, lo, hi time.Time) int {
	sl := s.ledger.sites[m.ID]
	if sl == nil {
		return 0
	}
	pa, pb := between(sl.payments, paymentStamp, lo, hi)
	ra, rb := between(sl.refunds, refundStamp, lo, hi)
	return pb - pa + rb - ra
}

// --- queries ---

// Transfers lists the transfers created in [from, to) (zero: unbounded) and
// by now, newest first (created, then register id, descending).
func (s *Store) Transfers(from, to time.Time) []Transfer {
	s.ledgerReady()
	s.mu.RLock()
	defer s.mu.RUnlock()
	now := s.clock()
	upper := now.Add(time.Millisecond) // created <= now
	if !to.IsZero() && to.Before(upper) {
		upper = to
	}
	// A transfer made in [from, upper) settles a period that ended at most
	// transferDelay+an hour before it, and a period is at most a month long.
	lo := time.Time{}
	if !from.IsZero() {
		lo = from.Add(-transferDelay-time.Hour).AddDate(0, -1, -1)
	}
	hi := upper.Add(-transferDelay)
	var out []Transfer
	for mi := range s.merchants {
		for _, t := range s.bucket(mi, lo, hi) {
			if !t.Created.Before(upper) || !from.IsZero() && t.Created.Before(from) {
				continue
			}
			out = append(out, *t)
		}
	}
	sortTransfers(out)
	return out
}

// sortTransfers puts the newest first (created, then register id, descending).
func sortTransfers(out []Transfer) {
	slices.SortFunc(out, func(a, b Transfer) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		if c := cmp.Compare(len(b.RegisterID), len(a.RegisterID)); c != 0 {
			return c
		}
		return cmp.Compare(b.RegisterID, a.RegisterID)
	})
}

// bucket sums a site's operations stamped in [lo, hi) into the transfers of
// their periods (those at the edges may be partial), under the read lock.
func (s *Store) bucket(mi int, lo, hi time.Time) map[string]*Transfer {
	byID := map[string]*Transfer{}
	if mi >= maxLedgerSites {
		return byID
	}
	m := s.merchants[mi]
	var cur *Transfer
	s.eachOp(m, lo, hi, func(op *RegisterOperation) {
		ci := slices.Index(m.Currencies, op.Currency)
		if ci < 0 || ci >= maxLedgerCurrencies {
			return
		}
		if cur == nil || cur.Currency != op.Currency || op.Stamp.Before(cur.PeriodFrom) || !op.Stamp.Before(cur.PeriodTo) {
			start, end, monthly := s.periodOf(m, op.Stamp)
			id := strconv.FormatInt(registerSeq(start, mi, ci, monthly), 10)
			if cur = byID[id]; cur == nil {
				cur = s.newTransfer(mi, ci, start, end, monthly)
				byID[id] = cur
			}
		}
		cur.add(op)
	})
	return byID
}

// decodeRegister finds the site, currency and period a register id names,
// if the settlement schedule has such a period.
func (s *Store) decodeRegister(id string) (mi, ci int, start, end time.Time, monthly, ok bool) {
	seq, good := seqOf(id)
	if !good || seq > 1<<40 {
		return
	}
	day, slot := seq/32, int(seq%32)
	mi, ci, monthly = slot/8, slot%4, slot%8 >= 4
	if mi >= len(s.merchants) || ci >= len(s.merchants[mi].Currencies) {
		return
	}
	m := s.merchants[mi]
	first := ledgerEpoch.AddDate(0, 0, int(day))
	start, end, isMonthly := s.periodOf(m, first)
	if !start.Equal(first) || isMonthly != monthly {
		return
	}
	return mi, ci, start, end, monthly, true
}

// Register builds one register with its operations (NotFoundError, kind
// "register", for an id no transfer has, or one not made yet).
func (s *Store) Register(id string) (Register, error) {
	s.ledgerReady()
	s.mu.RLock()
	defer s.mu.RUnlock()
	notFound := &NotFoundError{Kind: "register", ID: id}
	mi, ci, start, end, monthly, ok := s.decodeRegister(id)
	if !ok {
		return Register{}, notFound
	}
	t := s.newTransfer(mi, ci, start, end, monthly)
	if t.Created.After(s.clock()) {
		return Register{}, notFound
	}
	reg := Register{Operations: make([]RegisterOperation, 0, s.opCount(s.merchants[mi], start, end))}
	s.eachOp(s.merchants[mi], start, end, func(op *RegisterOperation) {
		if op.Currency == t.Currency {
			t.add(op)
			reg.Operations = append(reg.Operations, *op)
		}
	})
	if t.Count == 0 {
		return Register{}, notFound
	}
	reg.Transfer = *t
	return reg, nil
}

// dayTotals is one site's settled operations of one UTC day in one currency
// (the rows of the acceptance report).
type dayTotals struct {
	Day                                   time.Time
	Currency                              string
	Payments, RefundCount                 int
	Amount, Refunds, Commission, Transfer money.Decimal
}

// dailyTotals sums a site's operations of [lo, hi) by day and currency,
// under the read lock.
func (s *Store) dailyTotals(m *merchantData, lo, hi time.Time) map[[2]string]*dayTotals {
	out := map[[2]string]*dayTotals{}
	s.eachOp(m, lo, hi, func(op *RegisterOperation) {
		d := dayOf(op.Stamp)
		k := [2]string{d.Format(time.DateOnly), op.Currency}
		t := out[k]
		if t == nil {
			t = &dayTotals{Day: d, Currency: op.Currency}
			out[k] = t
		}
		if op.Refund {
			t.RefundCount++
			t.Refunds -= op.Amount
		} else {
			t.Payments++
			t.Amount += op.Amount
		}
		t.Commission += op.Commission
		t.Transfer += op.TransferAmount
	})
	return out
}
