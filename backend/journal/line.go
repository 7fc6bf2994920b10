package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"
)

// A start reads the journal as a stream: one line at a time, in a buffer
// of bounded size, each line looked at once by walk below (which finds the
// few fields that say whether an action is still open, at the speed of
// a byte loop) and fully decoded only when its action is still open at the
// end. encoding/json on every line reads about 90 MB/s here; this reads
// the journal several times faster (see BenchmarkStartRead).

// maxLine is the longest line read as an entry (a create's parameters
// included, a line is a few kilobytes). A longer one is skipped to its
// end and reported as not an entry, so no line grows memory without bound.
const maxLine = 4 << 20

// lineReader reads lines of at most maxLine bytes.
type lineReader struct {
	r      *bufio.Reader
	long   []byte // a line longer than r's buffer, gathered
	off    int64  // bytes consumed
	lastNL bool   // the last line read ended with a newline
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), lastNL: true}
}

// next returns the next line without its newline (valid until the next
// call), and tooLong when it was longer than maxLine (its bytes are then
// not returned). At the end of the input it returns io.EOF.
func (lr *lineReader) next() (line []byte, tooLong bool, err error) {
	lr.long = lr.long[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		lr.off += int64(len(chunk))
		switch {
		case err == nil:
			lr.lastNL = true
			chunk = chunk[:len(chunk)-1]
			if tooLong || len(lr.long)+len(chunk) > maxLine {
				return nil, true, nil
			}
			if len(lr.long) == 0 {
				return chunk, false, nil
			}
			lr.long = append(lr.long, chunk...)
			return lr.long, false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			if !tooLong && len(lr.long)+len(chunk) > maxLine {
				tooLong, lr.long = true, lr.long[:0]
			}
			if !tooLong {
				lr.long = append(lr.long, chunk...)
			}
		case errors.Is(err, io.EOF):
			if len(chunk) == 0 && len(lr.long) == 0 && !tooLong {
				return nil, false, io.EOF
			}
			lr.lastNL = false // the last line, without its newline
			if tooLong || len(lr.long)+len(chunk) > maxLine {
				return nil, true, nil
			}
			if len(lr.long) == 0 {
				return chunk, false, nil
			}
			lr.long = append(lr.long, chunk...)
			return lr.long, false, nil
		default:
			return nil, false, err
		}
	}
}

// fields are the top-level fields of a line that say which action it is
// of and where that action stands, as the raw bytes between their quotes.
type fields struct {
	action, phase, actionID, objectID, key []byte
	// escaped: one of them holds a backslash escape, so its raw bytes
	// are not its value (decode the line to read it).
	escaped bool
}

var (
	errTorn = errors.New("the line ends before its entry does")
	errBad  = errors.New("not a JSON object")
)

// walk checks that line is one JSON object (loosely: the nesting, the
// strings and the punctuation of the top level, not every number) and
// fills f with its top-level fields. errTorn: the line stops in the middle
// of the object, as a write cut short leaves it. errBad: anything else
// that is not an object. A field of f that is there but not a string or
// null makes the line errBad, as it does for encoding/json.
func walk(line []byte, f *fields) error {
	*f = fields{}
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return errBad
	}
	i = skipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		i++
	} else {
		for {
			if i >= len(line) {
				return errTorn
			}
			if line[i] != '"' {
				return errBad
			}
			ks, ke, kesc, next, err := str(line, i)
			if err != nil {
				return err
			}
			i = skipSpace(line, next)
			if i >= len(line) {
				return errTorn
			}
			if line[i] != ':' {
				return errBad
			}
			i = skipSpace(line, i+1)
			if i >= len(line) {
				return errTorn
			}
			dst := f.field(line[ks:ke], kesc)
			if line[i] == '"' {
				vs, ve, vesc, next, err := str(line, i)
				if err != nil {
					return err
				}
				if dst != nil {
					*dst = line[vs:ve]
					// encoding/json reads invalid UTF-8 as U+FFFD: such a
					// value is decoded, as an escaped one is.
					f.escaped = f.escaped || vesc || !utf8.Valid(*dst)
				}
				i = next
			} else {
				next, err := skipValue(line, i)
				if err != nil {
					return err
				}
				// null leaves a field as it was, as encoding/json does.
				if dst != nil && !bytes.Equal(line[i:next], []byte("null")) {
					return errBad
				}
				i = next
			}
			i = skipSpace(line, i)
			if i >= len(line) {
				return errTorn
			}
			if line[i] == ',' {
				i = skipSpace(line, i+1)
				continue
			}
			if line[i] != '}' {
				return errBad
			}
			i++
			break
		}
	}
	if skipSpace(line, i) != len(line) {
		return errBad
	}
	return nil
}

// field is where a top-level key's value goes (nil for the keys walk does
// not keep). Keys match without regard to case, as encoding/json matches
// them to Entry's fields; an escaped key is not compared, and marks the
// line for decoding.
func (f *fields) field(key []byte, escaped bool) *[]byte {
	if escaped {
		f.escaped = true
		return nil
	}
	for _, k := range [...]struct {
		name string
		dst  *[]byte
	}{{"action", &f.action}, {"phase", &f.phase}, {"actionId", &f.actionID},
		{"objectId", &f.objectID}, {"idempotencyKey", &f.key}} {
		if len(key) == len(k.name) && bytes.EqualFold(key, []byte(k.name)) {
			return k.dst
		}
	}
	return nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// str reads the string that starts at b[i] (a quote): its contents are
// b[start:end], escaped says whether they hold a backslash, next is just
// past the closing quote.
func str(b []byte, i int) (start, end int, escaped bool, next int, err error) {
	start = i + 1
	j := start
	for {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return 0, 0, false, 0, errTorn
		}
		bs := bytes.IndexByte(b[j:j+q], '\\')
		if bs < 0 {
			return start, j + q, escaped, j + q + 1, nil
		}
		escaped = true
		j += bs + 2 // the backslash and the character it escapes
		if j > len(b) {
			return 0, 0, false, 0, errTorn
		}
	}
}

// skipValue passes over the value (not a string) that starts at b[i]: an
// object or array with whatever it nests, or a number, true, false, null.
func skipValue(b []byte, i int) (int, error) {
	switch b[i] {
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				_, _, _, next, err := str(b, j)
				if err != nil {
					return 0, err
				}
				j = next - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errTorn
	}
	j := i
	for j < len(b) && (b[j] == '-' || b[j] == '+' || b[j] == '.' || b[j] >= '0' && b[j] <= '9' || b[j] >= 'a' && b[j] <= 'z' || b[j] >= 'A' && b[j] <= 'Z') {
		j++
	}
	if j == i {
		return 0, errBad
	}
	if j == len(b) {
		// "tru" at the end may be a cut-short true; a whole literal
		// there still has its closing brace to come.
		return 0, errTorn
	}
	return j, nil
}

// glued finds, in a line that is not an entry, an entry written after a
// fragment that a failed write left without its newline (an older paydash
// appended the next line to it): the last part of line from a `{"time":`
// that walks as a whole object. It returns nil when there is none.
func glued(line []byte, f *fields) []byte {
	mark := []byte(`{"time":`)
	for i := 1; i < len(line); {
		k := bytes.Index(line[i:], mark)
		if k < 0 {
			return nil
		}
		i += k
		if walk(line[i:], f) == nil {
			return line[i:]
		}
		i++
	}
	return nil
}

// decode reads a whole line as an Entry, as encoding/json does; it is an
// entry when it has an action and a phase.
func decode(line []byte) (Entry, bool) {
	var e Entry
	if err := json.Unmarshal(line, &e); err != nil || e.Action == "" || e.Phase == "" {
		return Entry{}, false
	}
	return e, true
}
