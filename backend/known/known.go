// Package known remembers the saved card tokens paydash knows, between
// runs, per service and merchant.
//
// # Why
//
// The payment service's v2 interface can read a token by its id but cannot
// list tokens. The Tokens tab therefore lists the tokens paydash has come
// across: those used or made by a payment it read (SeenInPayment), those it
// created (Created), and those looked up by id (LookedUp). This package
// keeps that list, in memory and in a small JSON file.
//
// # Where
//
// The caller chooses the file; the dashboard puts it beside the action
// journal as known-tokens.json. Tokens are keyed by service (the host of
// the service's base URL, e.g. "sandbox.local" or "pay.example.com") and
// merchant id, so one file serves every service and merchant. The file is
// written 0600 (its parent directory is created 0700 when missing): it
// names tokens and payments, never a secret. Save also creates
// "<file>.lock" beside it (an empty file used only for locking; leaving it
// there is harmless), and temporary files ".<file>.tmp-*" that exist only
// while a save runs.
//
// # Format
//
// One JSON document, indented, with the tokens of each merchant newest
// first:
//
//	{
//	  "version": 1,
//	  "services": {
//	    "pay.example.com": {
//	      "M-1001": {
//	        "tokens": [
//	          {
//	            "id": "tok_42",
//	            "title": "4111 11•• •••• 1111",
//	            "status": "Active",
//	            "expires": "2029-12-31T00:00:00Z",
//	            "firstSeen": "2026-11-21T10:00:00Z",
//	            "lastSeen": "2026-11-22T08:30:00Z",
//	            "source": "lookedUp",
//	            "payments": ["43149012", "43149010"]
//	          }
//	        ],
//	        "forgotten": [
//	          {"id": "tok_7", "at": "2026-11-22T08:31:00Z"}
//	        ]
//	      }
//	    }
//	  }
//	}
//
// "title", "status", "expires", "payments" and "forgotten" are left out
// when empty. "source" is "seenInPayment", "created" or "lookedUp". Times
// are RFC 3339 in UTC. "forgotten" records the tokens Forget removed, so
// that a copy of them still held by another paydash does not bring them
// back (see below). Fields this version does not know are ignored; a file
// of a later version is refused (ErrVersion), never overwritten.
//
// # Merge rule
//
// Note merges a note into the entry it already has for the token, and Save
// merges the file's entries with the store's by the same rule. Of two
// entries for one token, the "newer" one is the note being made, or in a
// file merge the one with the later LastSeen (the store's own on a tie):
//
//   - FirstSeen is the earlier of the two, LastSeen the later;
//   - Title, Status and Expires are the newer entry's when it has them
//     (non-empty, non-zero), else the older one's: a payment, which tells
//     no status, never erases the status a lookup found;
//   - Source is the stronger of the two, Created > LookedUp >
//     SeenInPayment: it says the most paydash has had to do with the token
//     (having created it beats having seen it in a payment), whatever the
//     order in which the notes came;
//   - Payments are the newer entry's, then the older one's not already
//     listed: newest first, without duplicates, at most MaxPayments.
//
// LastSeen moves at most once per LastSeenResolution: re-reading the same
// payments every few seconds tells the store nothing new, so Note reports
// no change and Save does not rewrite the file.
//
// Forget removes a token and records when; an entry of that token last
// seen at or before that time is dropped from every merge, so a Forget
// spreads to the file and to the other paydash processes that share it.
// A token noted again after it was forgotten is known again. Forget
// records are kept for ForgetFor, at most MaxForgotten per merchant.
//
// # Bounds
//
//   - token ids and payment ids: 1 to MaxIDLen bytes of valid UTF-8
//     without control characters; Note refuses a token whose id is not
//     (it returns false) and drops payment ids that are not;
//   - at most MaxTokens tokens per service and merchant: beyond that the
//     least recently seen are dropped;
//   - at most MaxPayments payment ids per token (the newest);
//   - Title at most MaxTitleLen bytes, Status at most MaxStatusLen bytes
//     (cut at a character boundary);
//   - the file at most MaxFileSize bytes. Open and Save refuse to read a
//     larger file (ErrTooLarge) and leave it untouched: the store starts
//     empty and works in memory, but Save keeps failing, writing nothing,
//     until the file is moved away or shrunk. Save never writes a larger
//     file: if the tokens would not fit, the least recently seen ones,
//     across all services and merchants, are dropped until they do.
//
// # Damaged files
//
// A file that cannot be parsed must not stop paydash: Open moves it aside
// to "<file>.corrupt-<UTC timestamp>" and returns a usable, empty Store
// together with a *CorruptError saying so. Save does the same if it finds
// the file damaged when it re-reads it, and then writes its tokens. A file
// is never overwritten unless it was read whole; Open and Save never
// delete one.
//
// # Links, pipes and devices
//
// The file and "<file>.lock" are opened, replaced and moved aside only as
// regular files, never through a symbolic link (backend/safefile). When
// the path is a symbolic link, Open does not read through it and Save does
// not write through it: neither the link nor the file it names is read,
// renamed, locked or replaced, no lock file is made beside either, and the
// error (wrapping *safefile.NotRegularError) says what the path is, "…
// is a symbolic link to …". A named pipe, a device, a socket or a
// directory there is refused the same way (a pipe without waiting on its
// open). The store then works in memory, as for any other read error.
//
// # Sharing the file
//
// Two paydash processes (two terminals) may use the same file. The store
// does not keep the file locked (the journal does; this store must not
// stop a second viewer). Instead Save, under an exclusive advisory lock on
// "<file>.lock" held only while it runs (waiting up to 5 seconds for
// another paydash's Save to finish), re-reads the file, merges its entries
// with the store's by the rule above, writes the result to a temporary
// file in the same directory, syncs it, renames it over the file, and
// unlocks. No process loses another's tokens, and the store then also
// holds the tokens the others saved. On systems without flock (Windows,
// Plan 9, ...) there is no lock: each write is still atomic, but two
// processes saving at the same instant may lose one save's new tokens.
package known

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"paydash/backend"
	"paydash/backend/safefile"
)

// Bounds of the store (see the package doc).
const (
	MaxTokens          = 10000   // tokens per service and merchant
	MaxPayments        = 50      // payment ids per token
	MaxIDLen           = 128     // bytes of a token or payment id
	MaxTitleLen        = 256     // bytes of a Title
	MaxStatusLen       = 64      // bytes of a Status
	MaxFileSize        = 4 << 20 // bytes of the file, read or written
	MaxForgotten       = 1000    // Forget records per service and merchant
	ForgetFor          = 90 * 24 * time.Hour
	LastSeenResolution = time.Minute // LastSeen moves at most this often

	maxServiceLen = 255 // bytes of a service key (a host name)
	lockWait      = 5 * time.Second
)

// Source is how paydash came to know a token.
type Source string

const (
	// SeenInPayment: a payment paydash read used or made the token.
	SeenInPayment Source = "seenInPayment"
	// LookedUp: paydash read the token by its id.
	LookedUp Source = "lookedUp"
	// Created: paydash created the token (a tokenization link).
	Created Source = "created"
)

// rank orders sources for the merge: the higher one wins. Unknown sources
// (from a hand-edited file) rank lowest.
func (s Source) rank() int {
	switch s {
	case Created:
		return 3
	case LookedUp:
		return 2
	case SeenInPayment:
		return 1
	}
	return 0
}

// Valid reports whether s is one of SeenInPayment, LookedUp and Created.
func (s Source) Valid() bool { return s.rank() > 0 }

// Token is what the store knows of one saved card token. Its JSON form is
// the one written to the file (see the package doc).
type Token struct {
	ID        string              `json:"id"`
	Title     string              `json:"title,omitempty"`  // e.g. a masked card "4111 11•• •••• 1111"
	Status    backend.TokenStatus `json:"status,omitempty"` // the last status paydash saw
	Expires   time.Time           `json:"expires,omitzero"`
	FirstSeen time.Time           `json:"firstSeen"` // set by the store
	LastSeen  time.Time           `json:"lastSeen"`  // set by the store
	Source    Source              `json:"source"`
	Payments  []string            `json:"payments,omitempty"` // payments known to use it, newest first
}

// FromPayment is the note for the token a payment used or made: its
// summary, Source SeenInPayment and the payment's id. ok is false when the
// payment carries no token.
func FromPayment(p backend.Payment) (t Token, ok bool) {
	if p.Token == nil || p.Token.ID == "" {
		return Token{}, false
	}
	t = Token{ID: p.Token.ID, Title: p.Token.Title, Expires: p.Token.Expires, Source: SeenInPayment}
	if p.ID != "" {
		t.Payments = []string{p.ID}
	}
	return t, true
}

// FromToken is the note for a token read from the service (LookedUp) or
// just created through it (Created).
func FromToken(t backend.Token, src Source) Token {
	return Token{ID: t.ID, Title: t.Title, Status: t.Status, Expires: t.Expires, Source: src}
}

// ErrTooLarge is wrapped by the error of Open or Save when the file is
// larger than MaxFileSize. The file is left untouched.
var ErrTooLarge = errors.New("known: file too large")

// ErrVersion is wrapped by the error of Open or Save when the file was
// written by a later paydash, in a format this one does not know. The file
// is left untouched.
var ErrVersion = errors.New("known: file of an unknown version")

// CorruptError says that the file could not be parsed. Open returns it
// with a usable, empty Store; Save returns it after writing its tokens in
// the damaged file's place. In both cases the damaged file was moved aside
// to MovedTo, unless MovedTo is empty: then it could not be moved (MoveErr
// says why), it is left as it was, and Save wrote nothing.
type CorruptError struct {
	Path    string // the file
	Reason  error  // why it could not be parsed
	MovedTo string // "<Path>.corrupt-<timestamp>"; empty if it could not be moved
	MoveErr error  // why it could not be moved aside, when MovedTo is empty
}

func (e *CorruptError) Error() string {
	if e.MovedTo != "" {
		return fmt.Sprintf("known: %s is damaged (%v); it was moved aside to %s and the list of known tokens starts afresh",
			e.Path, e.Reason, e.MovedTo)
	}
	return fmt.Sprintf("known: %s is damaged (%v) and could not be moved aside (%v); it is left as it is and nothing is saved over it",
		e.Path, e.Reason, e.MoveErr)
}

// Unwrap returns the reason the file could not be parsed.
func (e *CorruptError) Unwrap() error { return e.Reason }

// key is one service and merchant.
type key struct{ service, merchant string }

// bucket is what the store knows for one key.
type bucket struct {
	tokens    map[string]Token     // by id
	forgotten map[string]time.Time // id -> when Forget removed it
}

func newBucket() *bucket {
	return &bucket{tokens: map[string]Token{}, forgotten: map[string]time.Time{}}
}

// state is everything the store knows.
type state map[key]*bucket

// Store is the set of known tokens. It is safe for concurrent use; every
// method returns copies.
type Store struct {
	path     string
	now      func() time.Time
	lockWait time.Duration
	maxFile  int

	saveMu sync.Mutex // one Save at a time

	mu       sync.Mutex // guards the fields below
	data     state
	gen      uint64 // counts changes
	savedGen uint64 // gen as of the last Save (or Open)
}

func newStore(path string) *Store {
	return &Store{path: path, now: time.Now, lockWait: lockWait, maxFile: MaxFileSize, data: state{}}
}

// NewMemory returns a Store without a file: it remembers tokens for this
// run only, and its Save does nothing.
func NewMemory() *Store { return newStore("") }

// Open returns the Store kept in the file at path, reading the file if it
// exists (a missing file is an empty store; nothing is created until
// Save). It never returns a nil Store: when the file cannot be used the
// store starts empty and the error says why:
//
//   - a *CorruptError when the file could not be parsed (it was moved
//     aside: see CorruptError);
//   - an error wrapping ErrTooLarge or ErrVersion, one wrapping
//     *safefile.NotRegularError when the path is a symbolic link or
//     anything but a regular file, or any other read error: the file is
//     left untouched, and Save will fail without writing as long as it
//     cannot read the file either.
//
// Open("") returns a store like NewMemory's, and an error.
func Open(path string) (*Store, error) {
	s := newStore(path)
	if path == "" {
		return s, errors.New("known: no path: known tokens are kept for this run only")
	}
	doc, err := readFile(path, s.maxFile)
	var perr *parseError
	if errors.As(err, &perr) {
		doc, err = s.recoverCorrupt(path, perr)
	}
	if doc != nil {
		s.data = fromDoc(doc, s.now().UTC())
	}
	return s, err
}

// recoverCorrupt moves the damaged file at path aside, under the save
// lock, unless another paydash replaced it with a good one meanwhile: then
// it returns that one.
func (s *Store) recoverCorrupt(path string, perr *parseError) (*fileDoc, error) {
	release, err := acquire(path, s.lockWait)
	if err != nil {
		return nil, &CorruptError{Path: path, Reason: perr.err, MoveErr: err}
	}
	defer release()
	doc, err := readFile(path, s.maxFile)
	if !errors.As(err, &perr) {
		return doc, err // repaired meanwhile (or now unreadable for another reason)
	}
	moved, merr := moveAside(path, s.now())
	if merr != nil {
		return nil, &CorruptError{Path: path, Reason: perr.err, MoveErr: merr}
	}
	return nil, &CorruptError{Path: path, Reason: perr.err, MovedTo: moved}
}

// Path is the store's file ("" for a store without one).
func (s *Store) Path() string { return s.path }

// validText reports whether s is valid UTF-8 without control characters.
func validText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	return !strings.ContainsFunc(s, unicode.IsControl)
}

// ValidID reports whether Note accepts id as a token id (or keeps it as a
// payment id): 1 to MaxIDLen bytes of valid UTF-8, no control characters.
func ValidID(id string) bool {
	return id != "" && len(id) <= MaxIDLen && validText(id)
}

func validKey(service, merchant string) bool {
	return service != "" && len(service) <= maxServiceLen && validText(service) &&
		len(merchant) <= MaxIDLen && validText(merchant)
}

// cut shortens s to at most n bytes at a character boundary, replacing
// invalid UTF-8 (as the file would).
func cut(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// cleanPayments returns the valid ids of ps, without duplicates (the first
// kept), at most MaxPayments, in a new slice.
func cleanPayments(ps ...[]string) []string {
	var out []string
	for _, list := range ps {
		for _, p := range list {
			if len(out) == MaxPayments {
				return out
			}
			if ValidID(p) && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// utc drops t's location and monotonic reading, as the file would.
func utc(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

// normalize bounds t's fields, in a copy that shares nothing with t.
func normalize(t Token) Token {
	t.Title = cut(t.Title, MaxTitleLen)
	t.Status = backend.TokenStatus(cut(string(t.Status), MaxStatusLen))
	t.Expires = utc(t.Expires)
	t.FirstSeen = utc(t.FirstSeen)
	t.LastSeen = utc(t.LastSeen)
	t.Payments = cleanPayments(t.Payments)
	return t
}

// combine merges two entries of one token by the package's merge rule;
// newer is the note being made, or the one seen last.
func combine(older, newer Token) Token {
	m := newer
	m.FirstSeen = older.FirstSeen
	if m.FirstSeen.IsZero() || (!newer.FirstSeen.IsZero() && newer.FirstSeen.Before(m.FirstSeen)) {
		m.FirstSeen = newer.FirstSeen
	}
	if older.LastSeen.After(m.LastSeen) {
		m.LastSeen = older.LastSeen
	}
	if m.Title == "" {
		m.Title = older.Title
	}
	if m.Status == "" {
		m.Status = older.Status
	}
	if m.Expires.IsZero() {
		m.Expires = older.Expires
	}
	if older.Source.rank() > m.Source.rank() {
		m.Source = older.Source
	}
	m.Payments = cleanPayments(newer.Payments, older.Payments)
	return m
}

func sameToken(a, b Token) bool {
	return a.ID == b.ID && a.Title == b.Title && a.Status == b.Status && a.Source == b.Source &&
		a.Expires.Equal(b.Expires) && a.FirstSeen.Equal(b.FirstSeen) && a.LastSeen.Equal(b.LastSeen) &&
		slices.Equal(a.Payments, b.Payments)
}

func cloneToken(t Token) Token {
	t.Payments = slices.Clone(t.Payments)
	return t
}

// newerFirst orders tokens by LastSeen, newest first, then by id.
func newerFirst(a, b Token) int {
	if c := b.LastSeen.Compare(a.LastSeen); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// trimTokens drops the least recently seen tokens beyond MaxTokens.
func (b *bucket) trimTokens() {
	excess := len(b.tokens) - MaxTokens
	switch {
	case excess <= 0:
	case excess == 1: // the common case: one Note too many
		var oldest Token
		first := true
		for _, t := range b.tokens {
			if first || newerFirst(t, oldest) > 0 {
				oldest, first = t, false
			}
		}
		delete(b.tokens, oldest.ID)
	default:
		all := slices.SortedFunc(func(yield func(Token) bool) {
			for _, t := range b.tokens {
				if !yield(t) {
					return
				}
			}
		}, newerFirst)
		for _, t := range all[MaxTokens:] {
			delete(b.tokens, t.ID)
		}
	}
}

// trimForgotten drops Forget records older than ForgetFor and the oldest
// beyond MaxForgotten.
func (b *bucket) trimForgotten(now time.Time) {
	for id, at := range b.forgotten {
		if now.Sub(at) > ForgetFor {
			delete(b.forgotten, id)
		}
	}
	if len(b.forgotten) <= MaxForgotten {
		return
	}
	ids := make([]string, 0, len(b.forgotten))
	for id := range b.forgotten {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(x, y string) int {
		if c := b.forgotten[y].Compare(b.forgotten[x]); c != 0 {
			return c
		}
		return strings.Compare(x, y)
	})
	for _, id := range ids[MaxForgotten:] {
		delete(b.forgotten, id)
	}
}

// dead reports whether t was forgotten after it was last seen.
func (b *bucket) dead(t Token) bool {
	at, ok := b.forgotten[t.ID]
	return ok && !t.LastSeen.After(at)
}

func (b *bucket) empty() bool { return len(b.tokens) == 0 && len(b.forgotten) == 0 }

// mergeBuckets merges two buckets by the package's rule into a new one;
// a wins ties. Either may be nil.
func mergeBuckets(a, b *bucket, now time.Time) *bucket {
	out := newBucket()
	for _, in := range []*bucket{a, b} {
		if in == nil {
			continue
		}
		for id, at := range in.forgotten {
			if at.After(out.forgotten[id]) {
				out.forgotten[id] = at
			}
		}
	}
	for _, in := range []*bucket{a, b} {
		if in == nil {
			continue
		}
		for id, t := range in.tokens {
			if out.dead(t) {
				continue
			}
			old, ok := out.tokens[id]
			switch {
			case !ok:
				out.tokens[id] = cloneToken(t)
			case t.LastSeen.After(old.LastSeen):
				out.tokens[id] = combine(old, t)
			default:
				out.tokens[id] = combine(t, old)
			}
		}
	}
	out.trimTokens()
	out.trimForgotten(now)
	return out
}

// mergeStates merges two states by the package's rule into a new one; a
// wins ties.
func mergeStates(a, b state, now time.Time) state {
	out := state{}
	for k, ab := range a {
		out[k] = mergeBuckets(ab, b[k], now)
	}
	for k, bb := range b {
		if _, ok := a[k]; !ok {
			out[k] = mergeBuckets(nil, bb, now)
		}
	}
	for k, bk := range out {
		if bk.empty() {
			delete(out, k)
		}
	}
	return out
}

// dropSeenBy removes every token last seen at or before cutoff.
func (st state) dropSeenBy(cutoff time.Time) {
	for _, b := range st {
		for id, t := range b.tokens {
			if !t.LastSeen.After(cutoff) {
				delete(b.tokens, id)
			}
		}
	}
}

// Note adds t to what the store knows for service and merchant, or merges
// it into the entry it has (see the package doc for the rule). The store
// sets FirstSeen and LastSeen itself; t's are ignored. Note refuses (and
// returns false) an empty service, a service or merchant with control
// characters or too long, a token id that ValidID refuses, and a Source
// that is not Valid. It returns whether the store changed: a new token, or
// news of a known one (title, status, expiry, source, a payment), or
// LastSeen moved by LastSeenResolution or more. Only changes make Save
// write.
func (s *Store) Note(service, merchant string, t Token) bool {
	if !validKey(service, merchant) || !ValidID(t.ID) || !t.Source.Valid() {
		return false
	}
	t = normalize(t)

	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now().UTC()
	k := key{service, merchant}
	b := s.data[k]
	if b == nil {
		b = newBucket()
		s.data[k] = b
	}
	if at, ok := b.forgotten[t.ID]; ok && !now.After(at) {
		now = at.Add(time.Nanosecond) // noted again after Forget, on a coarse clock
	}
	t.FirstSeen, t.LastSeen = now, now
	old, ok := b.tokens[t.ID]
	if !ok {
		b.tokens[t.ID] = t
		b.trimTokens()
		s.gen++
		return true
	}
	m := combine(old, t)
	if m.LastSeen.Sub(old.LastSeen) < LastSeenResolution {
		m.LastSeen = old.LastSeen
	}
	if sameToken(m, old) {
		return false
	}
	b.tokens[t.ID] = m
	s.gen++
	return true
}

// List returns the tokens known for service and merchant, most recently
// seen first (then by id).
func (s *Store) List(service, merchant string) []Token {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.data[key{service, merchant}]
	if b == nil || len(b.tokens) == 0 {
		return nil
	}
	out := make([]Token, 0, len(b.tokens))
	for _, t := range b.tokens {
		out = append(out, cloneToken(t))
	}
	slices.SortFunc(out, newerFirst)
	return out
}

// Get returns the token known for service and merchant with the given id.
func (s *Store) Get(service, merchant, id string) (Token, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.data[key{service, merchant}]
	if b == nil {
		return Token{}, false
	}
	t, ok := b.tokens[id]
	if !ok {
		return Token{}, false
	}
	return cloneToken(t), true
}

// Forget removes a token from what the store knows for service and
// merchant, and records when, so that the next Save removes it from the
// file too, and the other paydash processes sharing the file drop it at
// their next Save. Noting it again makes it known again.
func (s *Store) Forget(service, merchant, id string) {
	if !validKey(service, merchant) || !ValidID(id) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now().UTC()
	k := key{service, merchant}
	b := s.data[k]
	if b == nil {
		b = newBucket()
		s.data[k] = b
	}
	if t, ok := b.tokens[id]; ok && !now.After(t.LastSeen) {
		now = t.LastSeen.Add(time.Nanosecond) // so that the record covers it
	}
	delete(b.tokens, id)
	if now.After(b.forgotten[id]) {
		b.forgotten[id] = now
	}
	b.trimForgotten(now)
	s.gen++
}

// Save writes the store to its file if it changed since the last Save; it
// is a no-op otherwise, and for a store without a file. Under the file's
// lock it re-reads the file, merges it with the store (the store then
// holds the merge too), and replaces the file atomically (a temporary file
// in the same directory, synced, renamed over it; mode 0600). It may run
// concurrently with the other methods: what is noted while it runs is kept
// for the next Save.
//
// It writes nothing, and returns an error, when it cannot read the file
// (ErrTooLarge, ErrVersion, ...) or cannot move a damaged one aside. When
// it found the file damaged and moved it aside, it writes and then returns
// the *CorruptError. After an error the changes stay unsaved: the next
// Save tries again.
func (s *Store) Save() error {
	if s.path == "" {
		return nil
	}
	s.saveMu.Lock()
	defer s.saveMu.Unlock()

	s.mu.Lock()
	if s.gen == s.savedGen {
		s.mu.Unlock()
		return nil
	}
	gen := s.gen
	snap := mergeStates(s.data, nil, s.now().UTC()) // a deep copy
	s.mu.Unlock()

	path := s.path
	// Before the lock: a path that is a link (or a pipe, a device) gets no
	// "<file>.lock" beside it, and nothing is written through it.
	if err := safefile.Check(path); err != nil {
		return fmt.Errorf("known: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("known: %w", err)
	}
	release, err := acquire(path, s.lockWait)
	if err != nil {
		return err
	}
	defer release()

	var corrupt *CorruptError
	doc, err := readFile(path, s.maxFile)
	var perr *parseError
	if errors.As(err, &perr) {
		moved, merr := moveAside(path, s.now())
		if merr != nil {
			return &CorruptError{Path: path, Reason: perr.err, MoveErr: merr}
		}
		corrupt = &CorruptError{Path: path, Reason: perr.err, MovedTo: moved}
	} else if err != nil {
		return err
	}

	now := s.now().UTC()
	merged := snap
	if doc != nil {
		merged = mergeStates(snap, fromDoc(doc, now), now)
	}
	raw, cutoff, err := encode(merged, s.maxFile)
	if err != nil {
		return fmt.Errorf("known: %s: %w", path, err)
	}
	if err := writeAtomic(path, raw); err != nil {
		return fmt.Errorf("known: writing %s: %w", path, err)
	}

	s.mu.Lock()
	s.data = mergeStates(s.data, merged, now)
	if !cutoff.IsZero() {
		s.data.dropSeenBy(cutoff)
	}
	s.savedGen = gen
	s.mu.Unlock()

	if corrupt != nil {
		return corrupt
	}
	return nil
}
