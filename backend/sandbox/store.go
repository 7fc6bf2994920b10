package sandbox

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"log/slog"
	"math"
	rnd "math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Ids are digit strings, ascending with creation: a payment's id is the same
// in both interfaces (a v2 string and a v1 number). Each kind counts from its
// own base so that ids of different kinds are told apart at a glance; the
// store finds an object by subtracting the base (no map needed).
const (
	paymentBase = 43000000
	refundBase  = 7000000
	tokenBase   = 5100000
	stickerBase = 20100
)

// Store is the sandbox service's state: merchants, payments, refunds, tokens,
// stickers and credentials, behind one lock. It knows nothing of HTTP; both
// interfaces call its exported methods. Reads take the read lock and return
// copies; moves take the write lock and return typed errors (errors.go).
type Store struct {
	mu          storeLock // a read-write lock whose writers also wait for the seed (seed_async.go)
	now         func() time.Time
	offset      atomic.Int64 // nanoseconds Advance has moved the clock on
	settleDelay time.Duration
	log         *slog.Logger

	wake chan struct{} // tells the settler an earlier event was added

	outbox   []notification     // callbacks collected under the lock, sent after it
	logbox   []stateLog         // state changes collected under the lock, logged after it
	notifier func(notification) // nil: callbacks are dropped (a store without a server)

	baseURL string // for the payment page and confirmation addresses

	fullToken, readOnlyToken string
	v1Users                  []V1User

	seed     int64     // Options.Seed
	seedSize int       // Options.Payments
	seedNow  time.Time // the store clock when the seed was made (Reset makes the same seed)

	// The seed in progress (seed_async.go), guarded by mu.
	baseCtx  context.Context // OpenStore's: seeding (and reseeding) stops when it ends
	resetMu  sync.Mutex      // one Reset at a time
	phase    seedPhase
	horizon  int64         // every seeded payment created at or after this (unix ns) is in
	progress chan struct{} // closed at each step of the seed (nil when none runs)
	seeder   *seeder       // the run in the background, nil when none
	seedGen  uint64        // counts seed runs; a Reset makes the running one stale

	storeData // everything Reset puts back
}

// storeData is the store's objects: what the seed makes and Reset replaces.
type storeData struct {
	merchants    []*merchantData
	merchantByID map[string]*merchantData

	// Objects by seq - base; seq is the id as a number.
	payments []*Payment
	refunds  []*Refund
	tokens   []*PaymentToken
	stickers []*Sticker

	events eventHeap // due state moves, earliest first (clock.go)

	gen *generator // seed tables, reused for new objects and arrivals
	rng *rnd.Rand  // deterministic choices for objects made after the seed

	ledger ledger // settled operations by settlement time, for v1 transfers (transfers.go)
}

// merchantData is a merchant with its objects, each slice sorted by
// (Created, id) so that a page is found by binary search, never by a scan.
type merchantData struct {
	Merchant
	payments []*Payment
	refunds  []*Refund
	stickers []*Sticker
	tokens   []*PaymentToken
	byOrder  map[string]*Payment // orderNo -> the newest payment with it

	// While seeding, payments is pbuf[pstart:...]: the chunks still to come
	// go into pbuf[:pstart], before it (seed_async.go).
	pbuf   []*Payment
	pstart int
}

// NewStore builds the store and seeds it (deterministically from opts.Seed),
// all of it before it returns; it panics if opts.Payments is more than
// MaxPayments. Nothing runs in the background: time moves only when RunDue
// is called, which the Server's settler does.
func NewStore(opts Options) *Store {
	s, err := OpenStore(context.Background(), opts)
	if err != nil {
		panic(err)
	}
	s.awaitComplete()
	return s
}

// OpenStore builds the store and seeds it (deterministically from
// opts.Seed): the newest payments and the live part before it returns, the
// rest in the background, newest first, while the store already answers
// (reads that need a part not made yet wait for it; writes wait for the
// whole seed). Seeding stops when ctx ends. It refuses more than MaxPayments.
func OpenStore(ctx context.Context, opts Options) (*Store, error) {
	opts = opts.withDefaults()
	if opts.Payments > MaxPayments {
		return nil, fmt.Errorf("sandbox: %d payments is more than the sandbox seeds (at most %d, about 550 bytes of memory each)", opts.Payments, MaxPayments)
	}
	s := &Store{
		now:         opts.Now,
		settleDelay: opts.SettleDelay,
		log:         opts.Logger,
		wake:        make(chan struct{}, 1),
		baseURL:     "https://127.0.0.1",
		seed:        opts.Seed,
		seedSize:    max(opts.Payments, 0),
		baseCtx:     ctx,
	}
	s.fullToken = "pdv2_" + randomSecret()
	s.readOnlyToken = "pdv2ro_" + randomSecret()
	s.v1Users = []V1User{
		{Login: "cashier", Password: randomSecret(), Role: RoleCashier, AccountID: V1AccountID},
		{Login: "accountant", Password: randomSecret(), Role: RoleAccountant, AccountID: V1AccountID},
	}
	s.seedNow = s.clock()
	s.storeData = s.freshData()
	if err := s.beginSeed(ctx); err != nil {
		return nil, fmt.Errorf("sandbox: seeding: %w", err)
	}
	return s, nil
}

// freshData is an empty store before its seed.
func (s *Store) freshData() storeData {
	return storeData{
		merchantByID: map[string]*merchantData{},
		rng:          rnd.New(rnd.NewPCG(uint64(s.seed), 0x5eed0001)),
	}
}

// randomSecret makes a credential; crypto/rand, never derived from the seed.
func randomSecret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// clock is the store time used for every timestamp: UTC, milliseconds (what
// the JSON shows, so a created time read back compares equal).
func (s *Store) clock() time.Time {
	return s.now().Add(time.Duration(s.offset.Load())).UTC().Truncate(time.Millisecond)
}

// Now is the store clock.
func (s *Store) Now() time.Time { return s.clock() }

// SettleDelay is how long new Pending payments and refunds stay pending.
func (s *Store) SettleDelay() time.Duration { return s.settleDelay }

func (s *Store) setBaseURL(u string) {
	s.mu.lockRaw()
	s.baseURL = u
	s.mu.Unlock()
}

func (s *Store) setNotifier(fn func(notification)) {
	s.mu.lockRaw()
	s.notifier = fn
	s.mu.Unlock()
}

// unlock releases the write lock, then hands over the callbacks collected
// under it, so a slow receiver can never hold the store.
func (s *Store) unlock() {
	out, fn, logs := s.outbox, s.notifier, s.logbox
	s.outbox, s.logbox = nil, nil
	s.mu.Unlock()
	for _, l := range logs {
		s.log.Info(l.msg, l.args...)
	}
	if fn != nil {
		for _, n := range out {
			fn(n)
		}
	}
}

// --- credentials ---

// V2Token is the full-rights bearer token; V2ReadOnlyToken may only read.
func (s *Store) V2Token() string         { return s.fullToken }
func (s *Store) V2ReadOnlyToken() string { return s.readOnlyToken }

// V2Access tells what a bearer token may do.
func (s *Store) V2Access(token string) Access {
	switch {
	case token == "":
		return AccessNone
	case token == s.fullToken:
		return AccessFull
	case token == s.readOnlyToken:
		return AccessReadOnly
	}
	return AccessNone
}

// V1Users lists the legacy logins (with passwords), for the v1 side.
func (s *Store) V1Users() []V1User { return slices.Clone(s.v1Users) }

// V1User finds a legacy login.
func (s *Store) V1User(login string) (V1User, bool) {
	for _, u := range s.v1Users {
		if u.Login == login {
			return u, true
		}
	}
	return V1User{}, false
}

// --- merchants ---

// Merchants lists the merchants (= v1 sites) in id order.
func (s *Store) Merchants() []Merchant {
	s.mu.RLock() // Reset replaces them (with the same)
	defer s.mu.RUnlock()
	out := make([]Merchant, len(s.merchants))
	for i, m := range s.merchants {
		out[i] = m.Merchant
	}
	return out
}

// MerchantIDs lists the merchant ids in order.
func (s *Store) MerchantIDs() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, len(s.merchants))
	for i, m := range s.merchants {
		out[i] = m.ID
	}
	return out
}

// Merchant finds one merchant.
func (s *Store) Merchant(id string) (Merchant, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m, ok := s.merchantByID[id]
	if !ok {
		return Merchant{}, false
	}
	return m.Merchant, true
}

// --- lookups by id ---

// seqOf reads a canonical digit id into its sequence number.
func seqOf(id string) (int64, bool) {
	if id == "" || len(id) > 18 || id[0] == '0' {
		return 0, false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(id, 10, 64)
	return n, err == nil
}

func lookup[T any](all []*T, base int64, id string) *T {
	n, ok := seqOf(id)
	if !ok {
		return nil
	}
	return itemAt(all, base, n)
}

func itemAt[T any](all []*T, base, seq int64) *T {
	if seq < base || seq-base >= int64(len(all)) {
		return nil
	}
	return all[seq-base]
}

func (s *Store) payment(id string) (*Payment, error) {
	if p := lookup(s.payments, paymentBase, id); p != nil {
		return p, nil
	}
	return nil, &NotFoundError{Kind: "payment", ID: id}
}

func (s *Store) refund(id string) (*Refund, error) {
	if r := lookup(s.refunds, refundBase, id); r != nil {
		return r, nil
	}
	return nil, &NotFoundError{Kind: "refund", ID: id}
}

func (s *Store) token(id string) (*PaymentToken, error) {
	if t := lookup(s.tokens, tokenBase, id); t != nil {
		return t, nil
	}
	return nil, &NotFoundError{Kind: "payment token", ID: id}
}

func (s *Store) sticker(id string) (*Sticker, error) {
	if st := lookup(s.stickers, stickerBase, id); st != nil {
		return st, nil
	}
	return nil, &NotFoundError{Kind: "sticker", ID: id}
}

// GetPayment returns one payment.
func (s *Store) GetPayment(id string) (Payment, error) {
	s.awaitSeed(func() bool { return !s.paymentMissing(id) })
	s.mu.RLock()
	defer s.mu.RUnlock()
	p, err := s.payment(id)
	if err != nil {
		return Payment{}, err
	}
	return *p, nil
}

// PaymentByOrderNo finds the newest payment of a merchant with that order
// number (v1 getPaymentByInvoiceID: invoiceID + siteAlias).
func (s *Store) PaymentByOrderNo(merchantID, orderNo string) (Payment, error) {
	// Found is final (what is not in yet is older); not found waits for all.
	s.awaitSeed(func() bool { m := s.merchantByID[merchantID]; return m == nil || m.byOrder[orderNo] != nil })
	s.mu.RLock()
	defer s.mu.RUnlock()
	if m := s.merchantByID[merchantID]; m != nil {
		if p := m.byOrder[orderNo]; p != nil {
			return *p, nil
		}
	}
	return Payment{}, &NotFoundError{Kind: "payment with orderNo", ID: orderNo}
}

// RefundsOfPayment lists a payment's refunds, oldest first.
func (s *Store) RefundsOfPayment(paymentID string) ([]Refund, error) {
	s.awaitComplete()
	s.mu.RLock()
	defer s.mu.RUnlock()
	p, err := s.payment(paymentID)
	if err != nil {
		return nil, err
	}
	out := make([]Refund, len(p.refunds))
	for i, r := range p.refunds {
		out[i] = *r
	}
	return out, nil
}

// GetRefund returns one refund.
func (s *Store) GetRefund(id string) (Refund, error) {
	s.awaitComplete()
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, err := s.refund(id)
	if err != nil {
		return Refund{}, err
	}
	return *r, nil
}

// GetPaymentToken returns one token.
func (s *Store) GetPaymentToken(id string) (PaymentToken, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.token(id)
	if err != nil {
		return PaymentToken{}, err
	}
	return *t, nil
}

// TokensOf lists a merchant's tokens, newest first (no v2 list exists; for
// tests and tools).
func (s *Store) TokensOf(merchantID string) []PaymentToken {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m := s.merchantByID[merchantID]
	if m == nil {
		return nil
	}
	out := make([]PaymentToken, 0, len(m.tokens))
	for i := len(m.tokens) - 1; i >= 0; i-- {
		out = append(out, *m.tokens[i])
	}
	return out
}

// GetSticker returns one sticker.
func (s *Store) GetSticker(id string) (Sticker, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st, err := s.sticker(id)
	if err != nil {
		return Sticker{}, err
	}
	return *st, nil
}

// PaymentCount is the number of payments in the store.
func (s *Store) PaymentCount() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.payments)
}

// --- inserting, keeping the per-merchant order ---

func (s *Store) addPayment(m *merchantData, p *Payment) {
	p.seq = paymentBase + int64(len(s.payments))
	p.ID = strconv.FormatInt(p.seq, 10)
	p.MerchantID = m.ID
	s.payments = append(s.payments, p)
	m.payments = insertSorted(m.payments, p)
	if o := p.Invoice.OrderNo; o != "" {
		if old := m.byOrder[o]; old == nil || !keyOf(p).less(keyOf(old)) {
			m.byOrder[o] = p
		}
	}
}

func (s *Store) addRefund(m *merchantData, p *Payment, r *Refund) {
	r.seq = refundBase + int64(len(s.refunds))
	r.ID = strconv.FormatInt(r.seq, 10)
	r.PaymentID, r.MerchantID = p.ID, m.ID
	s.refunds = append(s.refunds, r)
	m.refunds = insertSorted(m.refunds, r)
	p.refunds = append(p.refunds, r)
}

func (s *Store) addToken(m *merchantData, t *PaymentToken) {
	t.seq = tokenBase + int64(len(s.tokens))
	t.ID = strconv.FormatInt(t.seq, 10)
	t.MerchantID = m.ID
	s.tokens = append(s.tokens, t)
	m.tokens = insertSorted(m.tokens, t)
}

func (s *Store) addSticker(m *merchantData, st *Sticker) {
	st.seq = stickerBase + int64(len(s.stickers))
	st.ID = strconv.FormatInt(st.seq, 10)
	st.MerchantID = m.ID
	s.stickers = append(s.stickers, st)
	m.stickers = insertSorted(m.stickers, st)
}

// insertSorted appends (the usual case: the newest object) or, if a test
// clock went backwards, inserts at its place.
func insertSorted[T keyed](all []T, x T) []T {
	k := keyOf(x)
	if n := len(all); n == 0 || !k.less(keyOf(all[n-1])) {
		return append(all, x)
	}
	i, _ := slices.BinarySearchFunc(all, k, func(e T, k sortKey) int { return keyOf(e).cmp(k) })
	return slices.Insert(all, i, x)
}

// --- filters for the v1 side (period, order number, state; bounded) ---

// PaymentFilter selects payments for a v1 list. Zero members do not filter.
type PaymentFilter struct {
	MerchantIDs []string  // empty: every merchant (the v1 account holds them all)
	Start, End  time.Time // created in [Start, End); zero: unbounded
	OrderNo     string
	Statuses    []PaymentStatus
	Limit       int // at most this many (0 = 1000)
}

// FilterPayments returns the matching payments newest first, at most
// f.Limit of them, and whether more matched (v1 Overflow).
func (s *Store) FilterPayments(f PaymentFilter) ([]Payment, bool) {
	limit := cmp.Or(f.Limit, 1000)
	lo, hi := timeBounds(f.Start, f.End)
	var (
		out      []Payment
		overflow bool
	)
	// While the seed is made, the answer is final once the seed has passed
	// the period's start, or once more than the limit match among what is
	// in: everything not in yet is older than all of those.
	final := false
	s.awaitSeed(func() bool {
		out, overflow = s.filterPayments(f, limit, lo, hi)
		final = lo >= s.horizon || overflow
		return final
	})
	if !final { // no seed running (any more)
		s.mu.RLock()
		out, overflow = s.filterPayments(f, limit, lo, hi)
		s.mu.RUnlock()
	}
	return out, overflow
}

// filterPayments is FilterPayments under the read lock.
func (s *Store) filterPayments(f PaymentFilter, limit int, lo, hi int64) ([]Payment, bool) {
	var out []Payment
	overflow := false
	for _, m := range s.selectMerchants(f.MerchantIDs) {
		a, b := rangeOf(m.payments, lo, hi)
		n := 0
		for i := b - 1; i >= a; i-- {
			p := m.payments[i]
			if f.OrderNo != "" && p.Invoice.OrderNo != f.OrderNo {
				continue
			}
			if len(f.Statuses) > 0 && !slices.Contains(f.Statuses, p.Status) {
				continue
			}
			if n == limit { // one more than fits: enough to know it overflows
				overflow = true
				break
			}
			out = append(out, *p)
			n++
		}
	}
	slices.SortFunc(out, func(a, b Payment) int { return keyOf(&b).cmp(keyOf(&a)) })
	if len(out) > limit {
		out, overflow = out[:limit], true
	}
	return out, overflow
}

// RefundFilter selects refunds for a v1 list. Zero members do not filter.
type RefundFilter struct {
	MerchantIDs []string
	PaymentID   string
	Start, End  time.Time // created in [Start, End); zero: unbounded
	ExternalID  string
	Limit       int // 0 = 1000
}

// FilterRefunds returns matching refunds newest first, bounded like
// FilterPayments.
func (s *Store) FilterRefunds(f RefundFilter) ([]Refund, bool) {
	limit := cmp.Or(f.Limit, 1000)
	lo, hi := timeBounds(f.Start, f.End)
	s.awaitComplete()
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []Refund
	overflow := false
	for _, m := range s.selectMerchants(f.MerchantIDs) {
		a, b := rangeOf(m.refunds, lo, hi)
		n := 0
		for i := b - 1; i >= a; i-- {
			r := m.refunds[i]
			if f.PaymentID != "" && r.PaymentID != f.PaymentID {
				continue
			}
			if f.ExternalID != "" && r.ExternalID != f.ExternalID {
				continue
			}
			if n == limit {
				overflow = true
				break
			}
			out = append(out, *r)
			n++
		}
	}
	slices.SortFunc(out, func(a, b Refund) int { return keyOf(&b).cmp(keyOf(&a)) })
	if len(out) > limit {
		out, overflow = out[:limit], true
	}
	return out, overflow
}

func (s *Store) selectMerchants(ids []string) []*merchantData {
	if len(ids) == 0 {
		return s.merchants
	}
	var out []*merchantData
	for _, id := range ids {
		if m := s.merchantByID[id]; m != nil {
			out = append(out, m)
		}
	}
	return out
}

func timeBounds(start, end time.Time) (int64, int64) {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	if !start.IsZero() {
		lo = start.UnixNano()
	}
	if !end.IsZero() {
		hi = end.UnixNano()
	}
	return lo, hi
}

// --- sort keys ---

// sortKey orders objects by creation time, then id.
type sortKey struct{ created, seq int64 }

func (a sortKey) cmp(b sortKey) int {
	if c := cmp.Compare(a.created, b.created); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}
func (a sortKey) less(b sortKey) bool { return a.cmp(b) < 0 }

type keyed interface{ key() sortKey }

func keyOf[T keyed](x T) sortKey { return x.key() }

func (p *Payment) key() sortKey      { return sortKey{p.Created.UnixNano(), p.seq} }
func (r *Refund) key() sortKey       { return sortKey{r.Created.UnixNano(), r.seq} }
func (t *PaymentToken) key() sortKey { return sortKey{t.Created.UnixNano(), t.seq} }
func (st *Sticker) key() sortKey     { return sortKey{st.Created.UnixNano(), st.seq} }

// rangeOf finds [a, b) of the items created in [lo, hi) by binary search.
func rangeOf[T keyed](all []T, lo, hi int64) (int, int) {
	find := func(t int64) int {
		// The earliest position whose created time is >= t.
		i, _ := slices.BinarySearchFunc(all, t, func(e T, t int64) int { return cmp.Compare(keyOf(e).created, t) })
		return i
	}
	a, b := find(lo), find(hi)
	if b < a {
		b = a
	}
	return a, b
}
