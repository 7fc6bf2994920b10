// Package journal is paydash's append-only record of the actions it sends
// (docs/journal.md): every capture, cancel, refund, revoke, toggle and
// create is written here before it is sent ("sent") and again when its
// outcome is known ("done" or "failed"), so that an action's outcome is
// never in doubt, even after a crash or a lost connection. An answer that
// was lost, garbled or late is written as "unknown", and an action paydash
// stopped waiting for as "abandoned": neither is final, and what became of
// the action is found out later (package backend/action) and written as
// "done" or "failed", with how it was learned. Every line of one action
// carries its actionId, and the service it was sent to (Service).
//
// The file holds one JSON object per line (JSON Lines). Each entry is
// written with a single write call on a file opened with O_APPEND, under a
// mutex, and then synced to disk, so entries never interleave and a written
// entry survives a crash. A write that fails (a full disk) is cut away
// again, so it never damages the line after it, and the caller learns it
// failed: an action whose sent line is not whole on disk is not sent. The
// file is created 0600 in a directory created 0700: it names payments,
// amounts, idempotency keys and what a create sent (a customer's e-mail or
// phone among them), never a secret: no card number, no bearer token, no
// password (a service's credentials appear only as a fingerprint).
//
// One journal belongs to one paydash: Open locks it (an exclusive advisory
// lock on a lock file beside it, on the systems that have one), so that a
// second paydash cannot open it and take the first one's actions in flight
// for unfinished ones. At start, Open reads the file as a stream, keeping
// only the actions still open, and rolls it over when it has grown past
// RolloverSize or into a new month: the file is kept as an archive, and a
// new one begins with the lines of the open actions carried forward. The
// journal never writes through a symbolic link, a FIFO or a device.
package journal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"paydash/backend/flock"
	"paydash/backend/safefile"
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

// The first line of a file a rollover began: Action ActionRollover, Phase
// PhaseCarried, Previous the archive it continues, and Carried the number of
// lines after it that are copies of the archive's lines of open actions.
const (
	ActionRollover = "rollover"
	PhaseCarried   = "carried"
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
	// Person is who confirmed or asked for the action, and Approver and
	// ApproverKey the supervisor who approved it and their SSH key's
	// fingerprint (an action over its asker's limit, docs/approvals.md):
	// on every line of the action, written by paydash serve. The
	// single-user paydash, and lines written before these existed, have
	// none.
	Person      string `json:"person,omitempty"`
	Approver    string `json:"approver,omitempty"`
	ApproverKey string `json:"approverKey,omitempty"`
	// Service is the service the action was sent to. Lines of an older
	// paydash have none: their action is never sent again (see the
	// action package's PendingHere).
	Service *Service `json:"service,omitempty"`
	// Previous and Carried are a rollover line's (ActionRollover).
	Previous string `json:"previous,omitempty"`
	Carried  int    `json:"carried,omitempty"`
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
	Truncate(size int64) error
	Close() error
}

// RolloverSize is the size past which Open rolls the journal over. Options
// may give another.
var RolloverSize int64 = 16 << 20

// Options are Open's settings beyond the path. The zero value is fine.
type Options struct {
	// Services are the service as reached through each interface
	// configured now, the carrier of actions first. Record names in an
	// entry without a service the one of the entry's interface (else the
	// first); Serves tells whether a line's service is one of them.
	Services []Service
	// RolloverSize replaces the package's when > 0.
	RolloverSize int64
	// Now is the clock (the month of a rollover, the archive's name, the
	// time of an entry given without one); nil = time.Now.
	Now func() time.Time
	// Context ending stops Open while it reads the file (a signal at
	// start); nil = none.
	Context context.Context
	// Progress, when set, is called now and then while Open reads the
	// file, and once at the end of the read.
	Progress func(Progress)
}

// Progress is how far Open has read the file.
type Progress struct {
	Read, Total int64
	// RollingOver: the file is past its size, and is being read to be
	// rolled over.
	RollingOver bool
}

// Opened is what Open found in the file.
type Opened struct {
	// Open are the lines of the actions still without a final line,
	// oldest first: each action's first line, its first sent line when
	// the first is not one, and its latest line. The action package's
	// Pending rebuilds the actions from them.
	Open []Entry
	// Corrupt lists the lines that are not entries (nil when none).
	Corrupt *CorruptError
	// Archived is the archive the journal was rolled over into at this
	// start ("" when it was not).
	Archived string
	// Recovered says what a rollover cut short by a crash had left, and
	// how Open finished it ("" when nothing was left).
	Recovered string
	// RolloverErr is why a rollover that was due did not happen: the
	// journal goes on in the same file, and the next start tries again.
	RolloverErr error
}

// Journal appends entries to one file. It is safe for concurrent use.
type Journal struct {
	path     string
	now      func() time.Time
	services []Service
	opened   Opened
	lock     *os.File // the lock file, held until Close

	mu sync.Mutex
	f  file
	// tail is where the last whole entry ends: the Journal is the file's
	// only writer while it holds the lock, so it is where a failed write
	// is cut back to, and whether the next entry starts with a newline.
	tail   safefile.Tail
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

// Open is OpenWith without options: entries name no service of their own.
func Open(path string) (*Journal, error) { return OpenWith(path, Options{}) }

// OpenWith opens the journal at path for appending, creating the file
// (0600) and its parent directories (0700) as needed, and locks it until
// Close: if another paydash holds it, the error wraps ErrInUse. The lock is
// taken on LockPath(path), which stays in place across rollovers, and on
// the file itself (which an older paydash locks).
//
// It then finishes a rollover a crash cut short, reads the file as a
// stream (Opened), and rolls it over when it is past the rollover size or
// its first entry is of an earlier month (UTC), unless it holds nothing
// but the lines its own rollover carried. A rollover that fails leaves the
// file as it was (Opened.RolloverErr). If an earlier run was cut off in
// the middle of a line, the next entry starts on a line of its own.
//
// A symbolic link, a FIFO or a device at the journal's path, its lock
// file's or its rollover's is refused and left as it is.
func OpenWith(path string, o Options) (_ *Journal, err error) {
	if path == "" {
		return nil, errors.New("journal: no path")
	}
	o = o.withDefaults()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	lock, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	j := &Journal{path: path, now: o.Now, services: o.Services, lock: lock}
	defer func() {
		if err != nil {
			if j.f != nil {
				_ = j.f.Close()
			}
			_ = lock.Close()
		}
	}()
	if err := safefile.Check(path); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if j.opened.Recovered, err = recoverRollover(o.Context, path, j.now()); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	st, err := j.readCurrent(o)
	if err != nil {
		return nil, err
	}
	if due(st, o.RolloverSize, j.now()) {
		if err := j.rollOver(st.raw); err != nil {
			return nil, err
		}
	}
	return j, nil
}

// withDefaults is o with its zero fields set: the clock, the rollover
// size and the context.
func (o Options) withDefaults() Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.RolloverSize <= 0 {
		o.RolloverSize = RolloverSize
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	return o
}

// readCurrent opens the journal's file for appending and reads it: the
// open actions and damaged lines (Opened), and where the next line goes.
func (j *Journal) readCurrent(o Options) (*fileState, error) {
	f, err := openCurrent(j.path)
	if err != nil {
		return nil, err
	}
	j.f = f
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	st, err := readFile(o.Context, j.path, fi.Size(), fi.Size() > o.RolloverSize, o.Progress)
	if err != nil {
		return nil, err
	}
	j.opened.Open = st.entries
	if len(st.bad) > 0 {
		j.opened.Corrupt = &CorruptError{Path: j.path, Lines: st.bad}
	}
	j.tail = safefile.Tail{Size: st.size, Torn: st.endsTorn}
	return st, nil
}

// rollOver archives the file just read (raw, its lines) and goes on in a
// new, empty one. An archive that cannot be made leaves the file as it
// was (Opened.RolloverErr); only a new file that cannot be opened is an
// error.
func (j *Journal) rollOver(raw [][]byte) error {
	archived, err := rollover(j.path, raw, j.now())
	if err != nil {
		j.opened.RolloverErr = err
		return nil
	}
	j.opened.Archived = archived
	// The archive keeps the old file, its lock with it; the new one is
	// opened and locked in its place.
	nf, err := openCurrent(j.path)
	if err != nil {
		return err
	}
	_ = j.f.Close()
	j.f = nf
	fi, err := nf.Stat()
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	j.tail = safefile.Tail{Size: fi.Size()}
	if j.opened.Corrupt != nil {
		// Line numbers of the archive, which keeps the lines.
		j.opened.Corrupt.Path = archived
	}
	return nil
}

// LockPath is the lock file of the journal at path: "journal.jsonl.lock"
// beside "journal.jsonl". It stays when paydash ends (removing it could
// let two runs each hold a lock of their own).
func LockPath(path string) string { return path + ".lock" }

// lockFile opens and locks LockPath(path).
func lockFile(path string) (*os.File, error) {
	lp := LockPath(path)
	lf, err := safefile.OpenReadWrite(lp, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := flock.TryLock(lf); err != nil {
		lf.Close()
		if errors.Is(err, flock.ErrLocked) {
			return nil, &inUseError{path: path}
		}
		return nil, fmt.Errorf("journal: locking %s: %w", lp, err)
	}
	return lf, nil
}

// openCurrent opens the journal file for appending and locks it too: a
// paydash from before the lock file locks only the journal file.
func openCurrent(path string) (*os.File, error) {
	f, err := safefile.OpenAppend(path, 0o600)
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
	return f, nil
}

// readFile reads the journal file at path as a stream (readState), and
// then the lines of its open actions (openEntries).
func readFile(ctx context.Context, path string, total int64, rolling bool, progress func(Progress)) (*fileState, error) {
	rf, err := safefile.OpenRead(path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	defer rf.Close()
	var report func(int64)
	if progress != nil {
		report = func(read int64) {
			progress(Progress{Read: read, Total: max(total, read), RollingOver: rolling})
		}
	}
	st, err := readState(ctx, rf, report)
	if err == nil {
		err = st.openEntries(rf)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("journal: reading %s: %w", path, err)
	}
	return st, nil
}

// due reports whether the file read into st is to be rolled over now.
func due(st *fileState, limit int64, now time.Time) bool {
	if st.count == 0 || st.carriedOnly() {
		return false
	}
	if st.size > limit {
		return true
	}
	if st.first.Time.IsZero() {
		return false
	}
	fy, fm := month(st.first.Time)
	ny, nm := month(now)
	return fy*12+int(fm) < ny*12+int(nm)
}

// Path is where the journal is written.
func (j *Journal) Path() string {
	if j == nil {
		return ""
	}
	return j.path
}

// Opened is what Open found in the file, and did with it.
func (j *Journal) Opened() Opened {
	if j == nil {
		return Opened{}
	}
	return j.opened
}

// Services are the services the journal was opened for (Options.Services).
func (j *Journal) Services() []Service {
	if j == nil {
		return nil
	}
	return j.services
}

// ServiceFor is the service an entry sent through iface is stamped with:
// the one of that interface, else the first; zero when the journal was
// opened for none.
func (j *Journal) ServiceFor(iface string) Service {
	if j == nil || len(j.services) == 0 {
		return Service{}
	}
	for _, s := range j.services {
		if s.Interface == iface {
			return s
		}
	}
	return j.services[0]
}

// Serves reports whether s is one of the services the journal was opened
// for: an action sent to it may be found out here.
func (j *Journal) Serves(s Service) bool {
	if j == nil {
		return false
	}
	for _, mine := range j.services {
		if mine == s {
			return true
		}
	}
	return false
}

// Record appends e as one line and syncs the file. Time is set to now when
// zero, and Service to ServiceFor(e.Interface) when nil. An error means
// the entry is not on disk: the caller must not send an action whose
// "sent" entry failed. A write or sync that fails is cut away from the
// file (it is truncated back to its last whole entry); if even that fails,
// the next entry begins with a newline, so that it stays whole.
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
	if e.Service == nil {
		if s := j.ServiceFor(e.Interface); !s.IsZero() {
			e.Service = &s
		}
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
	// A sent line that is not on disk must not stay behind for a later
	// start to find and send: the Tail cuts a failed write away.
	if err := j.tail.Append(j.f, j.path, line); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// Close closes the file and releases the lock. Record fails after it; a
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
	err := j.f.Close()
	if j.lock != nil {
		err = errors.Join(err, j.lock.Close())
	}
	return err
}
