package known

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

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
	if err := safefile.WriteAtomic(path, raw, 0o600); err != nil {
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
