// Package journal is paydash's append-only record of the actions it sends
// (design §6): every capture, cancel, refund, revoke, toggle and create is
// written here before it is sent ("sent") and again when its outcome is known
// ("done" or "failed"), so that an action's outcome is never in doubt, even
// after a crash or a lost connection. An answer that was lost, garbled or
// late is written as "unknown", and an action paydash stopped waiting for
// as "abandoned": neither is final, and what became of the action is found
// out later (package backend/action) and written as "done" or "failed",
// with how it was learned. Every line of one action carries its actionId.
//
// The file holds one JSON object per line (JSON Lines). Each entry is
// written with a single write call on a file opened with O_APPEND, under a
// mutex, and then synced to disk, so entries never interleave and a written
// entry survives a crash. The file is created 0600 in a directory created
// 0700: it names payments, amounts, idempotency keys and what a create sent
// (a customer's e-mail or phone among them), never a secret: no card
// number, no bearer token, no password.
//
// One journal belongs to one paydash: Open locks the file (an exclusive
// advisory lock, on the systems that have one), so a second paydash cannot
// open it and take the first one's actions in flight for unfinished ones.
package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"paydash/backend/flock"
)

// Phases of an action. Only PhaseDone and PhaseFailed are final (Final).
const (
	// PhaseSent is written before the request goes out.
	PhaseSent = "sent"
	// PhaseDone: the service did it (it said so, or paydash found out).
	PhaseDone = "done"
	// PhaseFailed: the service did NOT do it. It refused, or paydash found
	// out that nothing was made. A lost answer is never "failed".
	PhaseFailed = "failed"
	// PhaseUnknown: the answer was lost, garbled or late. Not final: what
	// became of the action is still to be found out.
	PhaseUnknown = "unknown"
	// PhaseAbandoned: paydash stopped (quit, crashed, gave up) before the
	// answer came. Not final: the next start finds it out.
	PhaseAbandoned = "abandoned"
)

// Final reports whether a phase settles an action's outcome (done, failed).
func Final(phase string) bool { return phase == PhaseDone || phase == PhaseFailed }

// Entry is one line of the journal.
type Entry struct {
	Time           time.Time `json:"time"`
	Action         string    `json:"action"` // e.g. "capture", "refund"
	Phase          string    `json:"phase"`  // PhaseSent, PhaseDone, PhaseFailed, PhaseUnknown or PhaseAbandoned
	ObjectID       string    `json:"objectId"`
	Amount         string    `json:"amount,omitempty"`
	Currency       string    `json:"currency,omitempty"`
	Interface      string    `json:"interface,omitempty"`
	IdempotencyKey string    `json:"idempotencyKey,omitempty"`
	Result         string    `json:"result,omitempty"`   // what the service did, e.g. "refund 7000123 Pending"
	Error          string    `json:"error,omitempty"`    // why it was not done, or why the outcome is not known
	ActionID       string    `json:"actionId,omitempty"` // the same on every line of one action
	How            string    `json:"how,omitempty"`      // how a final outcome was learned, e.g. "answered"
	// Params are what else an action needs to be sent again or found out,
	// as the action package writes them (a JSON object), e.g. the state a
	// sticker is switched to, or everything a create sends. Lines written
	// before this field existed have none, and still read. Never a secret.
	Params json.RawMessage `json:"params,omitempty"`
}

// file is what the journal needs of an *os.File (a seam for tests).
type file interface {
	io.Writer
	Sync() error
	Close() error
}

// Journal appends entries to one file. It is safe for concurrent use.
type Journal struct {
	path string
	now  func() time.Time

	mu     sync.Mutex
	f      file
	closed bool
}

// ErrClosed is returned by Record after Close.
var ErrClosed = errors.New("journal: closed")

// ErrInUse is wrapped by Open's error when another paydash (or another Open
// in this process) holds the journal.
var ErrInUse = errors.New("journal: in use by another paydash")

// inUseError says which file is in use and what to do; it is ErrInUse.
type inUseError struct{ path string }

func (e *inUseError) Error() string {
	return "journal: " + e.path + " is in use by another paydash; close it or give --journal another file"
}

func (e *inUseError) Unwrap() error { return ErrInUse }

// Open opens the journal at path for appending, creating the file (0600)
// and its parent directories (0700) as needed, and takes an exclusive lock
// on it until Close: if another paydash holds it, the error wraps ErrInUse.
// If an earlier run was cut off in the middle of a line, a newline is added
// first, so the torn line stays alone and the next entry starts on a line
// of its own.
func Open(path string) (*Journal, error) {
	if path == "" {
		return nil, errors.New("journal: no path")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("journal: %s is not a regular file", path)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := flock.TryLock(f); err != nil {
		f.Close()
		if errors.Is(err, flock.ErrLocked) {
			return nil, &inUseError{path: path}
		}
		return nil, fmt.Errorf("journal: locking %s: %w", path, err)
	}
	// Only the lock holder looks at the end of the file: nobody else is
	// writing it now.
	torn, err := endsTorn(path)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("journal: %w", err)
	}
	if torn {
		if _, err := f.Write([]byte("\n")); err != nil {
			f.Close()
			return nil, fmt.Errorf("journal: %s: %w", path, err)
		}
	}
	return &Journal{path: path, now: time.Now, f: f}, nil
}

// endsTorn reports whether the file at path exists, is not empty and does
// not end with a newline.
func endsTorn(path string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false, err
	}
	if !st.Mode().IsRegular() {
		return false, fmt.Errorf("%s is not a regular file", path)
	}
	if st.Size() == 0 {
		return false, nil
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], st.Size()-1); err != nil {
		return false, err
	}
	return last[0] != '\n', nil
}

// Path is where the journal is written.
func (j *Journal) Path() string {
	if j == nil {
		return ""
	}
	return j.path
}

// Record appends e as one line and syncs the file. Time is set to now when
// zero. An error means the entry may not be on disk: the caller must not
// send an action whose "sent" entry failed.
func (j *Journal) Record(e Entry) error {
	if j == nil {
		return errors.New("journal: not open (nil journal)")
	}
	if e.Action == "" || e.Phase == "" {
		return fmt.Errorf("journal: an entry needs an action and a phase (got %q, %q)", e.Action, e.Phase)
	}
	if e.Time.IsZero() {
		e.Time = j.now()
	}
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	line = append(line, '\n')

	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return ErrClosed
	}
	n, err := j.f.Write(line)
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return fmt.Errorf("journal: writing %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal: syncing %s: %w", j.path, err)
	}
	return nil
}

// Close closes the file, which releases its lock. Record fails after it; a
// second Close is a no-op.
func (j *Journal) Close() error {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil
	}
	j.closed = true
	return j.f.Close()
}

// CorruptError lists the lines of a journal that are not entries (a line
// torn by a crash, then followed by later entries). Read returns it beside
// every entry it could read.
type CorruptError struct {
	Path  string
	Lines []int // 1-based line numbers
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("journal: %s: %d line(s) are not entries (first: line %d)", e.Path, len(e.Lines), e.Lines[0])
}

// Read returns every entry of the journal at path, oldest first. A torn
// line (an entry cut short because the process stopped while writing it:
// the last line without its newline, or the same line later ended by
// Open's newline) is skipped silently: nothing was sent after it, since an
// action goes out only once its line is on disk. Any other line that is
// not an entry is skipped too, and reported in a *CorruptError returned
// with the entries.
func Read(path string) ([]Entry, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	var (
		entries []Entry
		bad     []int
	)
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 64*1024), len(raw)+1)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e Entry
		err := json.NewDecoder(bytes.NewReader(line)).Decode(&e)
		if errors.Is(err, io.ErrUnexpectedEOF) && line[0] == '{' {
			continue // torn: its JSON ends early
		}
		if err != nil || e.Action == "" || e.Phase == "" || !json.Valid(line) {
			bad = append(bad, lineNo)
			continue
		}
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		return entries, fmt.Errorf("journal: reading %s: %w", path, err)
	}
	// The last line without a newline was being written when the process
	// stopped: not corruption, just an entry that never finished.
	if len(bad) > 0 && bad[len(bad)-1] == lineNo && len(raw) > 0 && raw[len(raw)-1] != '\n' {
		bad = bad[:len(bad)-1]
	}
	if len(bad) > 0 {
		return entries, &CorruptError{Path: path, Lines: bad}
	}
	return entries, nil
}
