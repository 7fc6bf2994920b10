package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"log/slog"
	rnd "math/rand/v2"
	"slices"
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

	scenarios scenarioSet // failures testers set in motion (scenario.go)
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
	// go into pbuf[:pstart], before it (seed_chunks.go).
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
