// Package team is the people file of `paydash serve`: who may connect
// (their SSH keys), what each may do (their role and limits), and the
// decisions that follow from it (Decide, CanApprove), with the current
// people swapped whole on a reload (Directory) and the objects being acted
// on across all sessions (Locks). docs/team.md describes the file as a
// support lead reads it.
package team

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"paydash/backend/money"
	"paydash/backend/safefile"

	"github.com/pelletier/go-toml/v2"
	"golang.org/x/crypto/ssh"
)

// Role is what a person may do.
type Role string

const (
	Viewer     Role = "viewer"     // looks, never acts
	Support    Role = "support"    // acts, amounts up to their limits
	Supervisor Role = "supervisor" // acts on any amount and approves others' requests
)

// Roles are the roles, in the order messages name them.
var Roles = []Role{Viewer, Support, Supervisor}

// Person is one [[person]] of the file.
type Person struct {
	Name string
	Role Role
	// Keys are the person's SSH public keys: whoever connects with one of
	// them is this person.
	Keys []ssh.PublicKey
	// Limits are the largest amount a support person sends without a
	// second person, by currency code ("RUB"); "*" is any other currency.
	// Only a support person's are used (Decide).
	Limits map[string]money.Decimal
	// Line is where the person's [[person]] starts in the file.
	Line int
}

// People is the whole file, read and checked; it does not change.
type People struct {
	list   []Person
	byName map[string]int
	byKey  map[string]int // by the key's wire form (ssh.PublicKey.Marshal)
	// Warnings are the file's oddities that do not stop it being used
	// (limits given to a supervisor), each naming its line.
	Warnings []string
}

// ByKey is the person whose key this is.
func (p *People) ByKey(key ssh.PublicKey) (Person, bool) {
	if p == nil || key == nil {
		return Person{}, false
	}
	i, ok := p.byKey[string(key.Marshal())]
	if !ok {
		return Person{}, false
	}
	return p.list[i], true
}

// ByName is the person of this name (exact, as the file writes it).
func (p *People) ByName(name string) (Person, bool) {
	if p == nil {
		return Person{}, false
	}
	i, ok := p.byName[name]
	if !ok {
		return Person{}, false
	}
	return p.list[i], true
}

// Names are the people's names in the file's order.
func (p *People) Names() []string {
	if p == nil {
		return nil
	}
	names := make([]string, len(p.list))
	for i, person := range p.list {
		names[i] = person.Name
	}
	return names
}

// Fingerprint is a key as ssh-keygen -l shows it: "SHA256:…".
func Fingerprint(key ssh.PublicKey) string { return ssh.FingerprintSHA256(key) }

// maxFileSize bounds the people file: a person is a few hundred bytes.
const maxFileSize = 4 << 20

// Load reads and checks the people file at path. The file is read only if
// it is a regular file (a symbolic link to one is followed): a named pipe
// or a device is refused without being opened, so a reload never blocks.
func Load(path string) (*People, error) {
	data, err := readRegular(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return Parse(path, data)
}

// readRegular reads a regular file of at most maxFileSize bytes. It checks
// what the path is before opening it and what was opened after; the open
// itself does not wait (nonBlock), should a pipe appear in between.
func readRegular(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fileErr(err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("is %s, not a regular file", safefile.Describe(st.Mode()))
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, fileErr(err)
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, fileErr(err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("is %s, not a regular file", safefile.Describe(st.Mode()))
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, fileErr(err)
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("is larger than %d MiB: is it the people file?", maxFileSize>>20)
	}
	return data, nil
}

// fileErr says a file system error in words, without Go's "open PATH:".
func fileErr(err error) error {
	switch {
	case errors.Is(err, os.ErrNotExist):
		return errors.New("no such file")
	case errors.Is(err, os.ErrPermission):
		return errors.New("permission denied")
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Problem is one fault of the file, where it is.
type Problem struct {
	Line, Column int // from 1; 0 when not known
	Message      string
}

// FileError is a people file that cannot be used: every problem found,
// in the file's order.
type FileError struct {
	Path     string
	Problems []Problem
}

func (e *FileError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, pr := range e.Problems {
		lines[i] = e.Path + ": " + pr.String()
	}
	return strings.Join(lines, "\n")
}

// String is the problem with its place: "line 4, column 9: role …".
func (pr Problem) String() string {
	switch {
	case pr.Line > 0 && pr.Column > 0:
		return fmt.Sprintf("line %d, column %d: %s", pr.Line, pr.Column, pr.Message)
	case pr.Line > 0:
		return fmt.Sprintf("line %d: %s", pr.Line, pr.Message)
	}
	return pr.Message
}

// Parse reads the people file's text; name is the file's name for the
// messages. The error is a *FileError naming every problem found, each
// with its line.
func Parse(name string, data []byte) (*People, error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			msg := strings.TrimPrefix(de.Error(), "toml: ")
			return nil, &FileError{name, []Problem{{line, col, "this is not TOML: " + msg}}}
		}
		return nil, &FileError{name, []Problem{{0, 0, "this is not TOML: " + err.Error()}}}
	}
	c := checker{spots: findSpots(data), names: map[string]int{}, keys: map[string]keyOwner{}}
	people := c.file(doc)
	if len(c.problems) > 0 {
		slices.SortStableFunc(c.problems, func(a, b Problem) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Column - b.Column
		})
		return nil, &FileError{name, c.problems}
	}
	for i, w := range c.warnings {
		c.warnings[i] = name + ": " + w
	}
	people.Warnings = c.warnings
	return people, nil
}
