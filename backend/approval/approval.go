// Package approval is the store of approval requests of paydash serve
// (docs/approvals.md): an action a support person asks for over their
// limit is not sent; it is filed here, and a supervisor (never the one who
// asked) approves it, which claims it for sending exactly once, or rejects
// it with a reason. The asker may withdraw it while it waits. A request
// not decided within its TTL expires.
//
// The store is an append-only file of JSON lines, one line per change,
// each the whole request after it (the action as the journal of actions
// writes it, its Params too), synced before the change is made or told to
// anyone: Open reads it back, the last whole line of each request being
// what it is now. It is written as the journal is (backend/safefile):
// never through a symbolic link, only into a regular file, 0600 in a 0700
// directory, a failed write (a full disk) cut back so that it never
// damages the next line; and it is locked (backend/flock), so that two
// servers cannot share it. A damaged line is skipped and reported
// (Damaged), not fatal. Open rolls the file over as the journal's is, when
// past a size or into a new month, carrying the requests still open
// (rollover.go).
package approval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/backend/safefile"
)

// State is where a request is in its life.
type State string

const (
	// Waiting: filed, not decided yet.
	Waiting State = "waiting"
	// Approved: a supervisor approved it and it is claimed for sending;
	// Outcome says what is known so far ("" until the send is under way).
	Approved State = "approved"
	// Sent: sent, and its outcome known (done or failed: Outcome says which).
	Sent State = "sent"
	// Rejected: a supervisor refused it (Reason says why).
	Rejected State = "rejected"
	// Withdrawn: the one who asked withdrew it while it waited.
	Withdrawn State = "withdrawn"
	// Expired: nobody decided within its TTL.
	Expired State = "expired"
)

// Request is one approval request.
type Request struct {
	ID string // the request's id (backend.NewIdempotencyKey())
	// Action is the exact action: its kind, object, amount and currency,
	// Interface, IdempotencyKey and action ID are fixed when it is filed,
	// and the action sent after the approval is this one.
	Action       action.Request
	Requester    string // who asked: the person's name
	RequesterKey string // and their SSH key's fingerprint
	Filed        time.Time
	Expires      time.Time
	State        State
	// Decider and DeciderKey are who approved, rejected or withdrew it;
	// Reason why (a rejection's typed reason); Decided when (for an
	// expired one, when it was found expired).
	Decider, DeciderKey, Reason string
	Decided                     time.Time
	// Outcome is, once approved, what became of the action, in words
	// (action.Outcome.Text): final in Sent, so far in Approved.
	Outcome string
}

// Options are Open's settings. The zero value is fine.
type Options struct {
	Now func() time.Time // the clock; nil = time.Now
	TTL time.Duration    // how long a request waits before it expires; 0 = DefaultTTL
	// RolloverSize is the size past which Open rolls the file over; 0 =
	// the journal's, journal.RolloverSize (16 MiB).
	RolloverSize int64
}

// DefaultTTL is how long a request waits for a decision by default.
const DefaultTTL = time.Hour

// Errors the store's changes wrap; the error itself says, in words, what
// the request is (its state, who decided it and when).
var (
	ErrNotFound   = errors.New("no such approval request")
	ErrOwn        = errors.New("a request cannot be decided by the one who asked for it")
	ErrNotWaiting = errors.New("the request is no longer waiting")
	ErrExpired    = errors.New("the request has expired")
	ErrNotOwn     = errors.New("only the one who asked can withdraw a request")
	ErrNotClaimed = errors.New("the request is not approved for sending")
	ErrClosed     = errors.New("approvals: closed")
	ErrInUse      = errors.New("approvals: in use by another paydash")
)

// DamagedLine is a line of the file that could not be read: skipped.
type DamagedLine struct {
	Line int    // its number, from 1
	Err  string // why
}

// Store is the approval requests. It is safe for concurrent use.
type Store struct {
	path string
	now  func() time.Time
	ttl  time.Duration

	mu      sync.Mutex
	f       file // the file, opened for appending and locked
	tail    safefile.Tail
	reqs    map[string]*Request
	damaged []DamagedLine
	subs    map[*subscriber]struct{}
	closed  bool
	opened  Opened
}

// file is what the store needs of its *os.File (a seam for tests).
type file interface {
	safefile.Appendable
	Close() error
}

// Open opens the store at path, creating the file (0600) and its
// directory (0700) as needed, reads back every request it holds, and locks
// it until Close: a second Open of the same file (another server) fails
// with an error wrapping ErrInUse. A symbolic link, a FIFO (without
// blocking), a device or a directory at path is refused and left as it is.
// It finishes or undoes a rollover a crash cut short, and rolls the file
// over when it is due (Opened says what it did).
func Open(path string, o Options) (_ *Store, err error) {
	if path == "" {
		return nil, errors.New("approvals: no path")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.TTL <= 0 {
		o.TTL = DefaultTTL
	}
	if o.RolloverSize <= 0 {
		o.RolloverSize = journal.RolloverSize
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("approvals: %w", err)
	}
	var opened Opened
	if opened.Recovered, err = finishRollover(path, o.Now()); err != nil {
		return nil, fmt.Errorf("approvals: %w", err)
	}
	f, err := openLocked(path)
	if err != nil {
		return nil, err
	}
	s := &Store{path: path, now: o.Now, ttl: o.TTL, f: f, reqs: map[string]*Request{}, subs: map[*subscriber]struct{}{}}
	defer func() {
		if err != nil {
			_ = s.f.Close()
		}
	}()
	if note, err := removeLeftover(path); err != nil {
		return nil, fmt.Errorf("approvals: %w", err)
	} else if note != "" {
		opened.Recovered = note
	}
	s.opened = opened
	sc, c, err := s.read()
	if err != nil {
		return nil, err
	}
	if due(sc, o.RolloverSize, s.now()) {
		s.rollOver(c)
	}
	return s, nil
}

// openLocked opens the file at path for appending and locks it. A file
// that is no longer the one at path once locked (another server rolled it
// over meanwhile) is let go and the one there now is tried.
func openLocked(path string) (*os.File, error) {
	for try := 1; ; try++ {
		f, err := safefile.OpenAppend(path, 0o600)
		if err != nil {
			return nil, fmt.Errorf("approvals: %w", err)
		}
		if err := lock(f, path); err != nil {
			_ = f.Close()
			return nil, err
		}
		fi, ferr := f.Stat()
		li, lerr := os.Lstat(path)
		if ferr == nil && lerr == nil && os.SameFile(fi, li) {
			return f, nil
		}
		_ = f.Close()
		if try == 3 {
			return nil, fmt.Errorf("%w: %s keeps being replaced", ErrInUse, path)
		}
	}
}

// Path is the store's file.
func (s *Store) Path() string { return s.path }

// Damaged lists the lines Open skipped (nil when none).
func (s *Store) Damaged() []DamagedLine {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]DamagedLine(nil), s.damaged...)
}

// Close closes the file, releasing its lock, and ends every subscription
// (its channel is closed). The changes fail after it; a second Close is a
// no-op.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	for sub := range s.subs {
		close(sub.ch)
		delete(s.subs, sub)
	}
	return s.f.Close()
}
