package known

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"paydash/backend/flock"
	"paydash/backend/safefile"
)

// fileVersion is the version of the format this package reads and writes.
const fileVersion = 1

// fileDoc is the file's JSON document.
type fileDoc struct {
	Version  int                                 `json:"version"`
	Services map[string]map[string]*fileMerchant `json:"services"`
}

// fileMerchant is what the file holds for one service and merchant.
type fileMerchant struct {
	Tokens    []Token      `json:"tokens"`
	Forgotten []fileForget `json:"forgotten,omitempty"`
}

// fileForget records a Forget.
type fileForget struct {
	ID string    `json:"id"`
	At time.Time `json:"at"`
}

// parseError: the file is there, whole, but is not a document of ours.
type parseError struct{ err error }

func (e *parseError) Error() string { return e.err.Error() }

// readFile reads and parses the file at path. A missing file, or one of
// white space only, is (nil, nil). A file that is not a document of ours
// is a *parseError; one too large wraps ErrTooLarge; one of a later
// version wraps ErrVersion; a path that holds anything but a regular file
// (a symbolic link, a named pipe, a device, a directory) is refused with
// an error wrapping *safefile.NotRegularError.
func readFile(path string, limit int) (*fileDoc, error) {
	// safefile refuses a symbolic link (read through, the file it names
	// would then be moved aside or replaced), and anything but a regular
	// file, without blocking on a named pipe's open.
	f, err := safefile.OpenRead(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("known: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("known: %w", err)
	}
	tooLarge := func(size int64) error {
		return fmt.Errorf("%w: %s is %d bytes, more than the %d paydash reads; it is left as it is, and tokens are not saved until it is moved away",
			ErrTooLarge, path, size, limit)
	}
	if st.Size() > int64(limit) {
		return nil, tooLarge(st.Size())
	}
	raw, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("known: reading %s: %w", path, err)
	}
	if len(raw) > limit { // it grew after Stat
		return nil, tooLarge(int64(len(raw)))
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}

	var doc fileDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, &parseError{err}
	}
	switch {
	case doc.Version > fileVersion:
		return nil, fmt.Errorf("%w: %s has version %d, written by a later paydash (this one knows version %d); it is left as it is and nothing is saved over it",
			ErrVersion, path, doc.Version, fileVersion)
	case doc.Version < 1:
		return nil, &parseError{errors.New(`no "version"`)}
	}
	return &doc, nil
}

// fromDoc turns the file's document into a state, keeping only what Note
// would accept and applying the bounds. A token listed twice is merged.
func fromDoc(doc *fileDoc, now time.Time) state {
	st := state{}
	for service, merchants := range doc.Services {
		for merchant, fm := range merchants {
			if fm == nil || !validKey(service, merchant) {
				continue
			}
			b := newBucket()
			for _, f := range fm.Forgotten {
				if ValidID(f.ID) && !f.At.IsZero() && f.At.UTC().After(b.forgotten[f.ID]) {
					b.forgotten[f.ID] = f.At.UTC()
				}
			}
			for _, t := range fm.Tokens {
				if !ValidID(t.ID) {
					continue
				}
				t = normalize(t)
				old, ok := b.tokens[t.ID]
				switch {
				case !ok:
					b.tokens[t.ID] = t
				case t.LastSeen.After(old.LastSeen):
					b.tokens[t.ID] = combine(old, t)
				default:
					b.tokens[t.ID] = combine(t, old)
				}
			}
			// Merging with an empty bucket applies the Forget records and
			// the bounds.
			b = mergeBuckets(b, nil, now)
			if !b.empty() {
				st[key{service, merchant}] = b
			}
		}
	}
	return st
}

// toDoc turns a state into the file's document, tokens newest first.
func toDoc(st state) *fileDoc {
	doc := &fileDoc{Version: fileVersion, Services: map[string]map[string]*fileMerchant{}}
	for k, b := range st {
		if b.empty() {
			continue
		}
		fm := &fileMerchant{Tokens: make([]Token, 0, len(b.tokens))}
		for _, t := range b.tokens {
			fm.Tokens = append(fm.Tokens, t)
		}
		slices.SortFunc(fm.Tokens, newerFirst)
		for id, at := range b.forgotten {
			fm.Forgotten = append(fm.Forgotten, fileForget{ID: id, At: at})
		}
		slices.SortFunc(fm.Forgotten, func(x, y fileForget) int {
			if c := y.At.Compare(x.At); c != 0 {
				return c
			}
			return strings.Compare(x.ID, y.ID)
		})
		if doc.Services[k.service] == nil {
			doc.Services[k.service] = map[string]*fileMerchant{}
		}
		doc.Services[k.service][k.merchant] = fm
	}
	return doc
}

// encode returns the file's bytes for st, at most limit of them. If st
// does not fit, the least recently seen tokens are dropped from st until
// it does, and cutoff is the LastSeen at or before which tokens were
// dropped (zero when none were).
func encode(st state, limit int) (raw []byte, cutoff time.Time, err error) {
	for {
		raw, err = json.MarshalIndent(toDoc(st), "", "  ")
		if err != nil {
			return nil, cutoff, err
		}
		raw = append(raw, '\n')
		if len(raw) <= limit {
			return raw, cutoff, nil
		}
		var seen []time.Time
		for _, b := range st {
			for _, t := range b.tokens {
				seen = append(seen, t.LastSeen)
			}
		}
		if len(seen) == 0 {
			return nil, cutoff, fmt.Errorf("the list of forgotten tokens alone is larger than %d bytes", limit)
		}
		slices.SortFunc(seen, time.Time.Compare)
		cutoff = seen[len(seen)/10] // the oldest tenth, at least one token
		st.dropSeenBy(cutoff)
	}
}

// moveAside renames the damaged file at path to "<path>.corrupt-<time>"
// (with "-2", "-3"... if that name is taken) and returns the new name.
func moveAside(path string, now time.Time) (string, error) {
	base := path + ".corrupt-" + now.UTC().Format("20060102T150405Z")
	for i := 1; i <= 100; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		if _, err := os.Lstat(name); !errors.Is(err, os.ErrNotExist) {
			continue
		}
		// Checked just before the rename: only a regular file is moved,
		// never a link that took its place (nor what the link names).
		if err := safefile.Check(path); err != nil {
			return "", err
		}
		if err := os.Rename(path, name); err != nil {
			return "", err
		}
		return name, nil
	}
	return "", fmt.Errorf("too many files named %s*", base)
}

// acquire takes the save lock of the file at path: an exclusive advisory
// lock on "<path>.lock", waiting up to wait for another paydash's Save.
// release unlocks it.
func acquire(path string, wait time.Duration) (release func(), err error) {
	lockPath := path + ".lock"
	// Opened like the file itself: a link there would have paydash create
	// or lock a file elsewhere.
	f, err := safefile.OpenReadWrite(lockPath, 0o600)
	if err != nil {
		return nil, fmt.Errorf("known: %w", err)
	}
	if err := flock.Wait(f, wait); err != nil {
		f.Close()
		if errors.Is(err, flock.ErrLocked) {
			return nil, fmt.Errorf("known: %s has been locked by another paydash for more than %s; not saved, will try again", lockPath, wait)
		}
		return nil, fmt.Errorf("known: locking %s: %w", lockPath, err)
	}
	return func() { f.Close() }, nil
}
