package transport

import (
	"errors"
	"fmt"
	"io"
)

// ErrAnswerTooLarge is matched (errors.Is) by a *TooLargeError.
var ErrAnswerTooLarge = errors.New("answer too large")

// TooLargeError is an answer larger than a client reads. It is not a lost
// answer or a network failure: the service did answer, completely, and
// asking again gets the same answer, so it is never retried. The way out is
// a smaller question (a shorter period), and the message says so.
type TooLargeError struct {
	Limit int64 // bytes the client reads at most
	Size  int64 // the answer's declared size (Content-Length), or -1 if it did not say
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the service's answer is larger than %d MiB, more than paydash reads; choose a shorter period", e.Limit>>20)
}

func (e *TooLargeError) Is(target error) bool { return target == ErrAnswerTooLarge }

// ReadAnswer reads and closes an answer's body, at most limit bytes: a
// larger one is a *TooLargeError, found out at once when the answer
// declares its length (declared, -1 if it does not) and otherwise after
// limit bytes. Other errors are those of the body's reads.
//
// A declared length is read into one buffer of that size (and a byte to
// see the end), not one grown and copied as io.ReadAll does: a client
// reads a page of payments per 100 of them.
func ReadAnswer(body io.ReadCloser, declared, limit int64) ([]byte, error) {
	defer body.Close()
	if declared > limit {
		return nil, &TooLargeError{Limit: limit, Size: declared}
	}
	var b []byte
	if declared >= 0 {
		b = make([]byte, 0, min(declared, maxPresize)+1)
	}
	b, err := readAll(body, b, limit+1)
	if err != nil {
		return b, err
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Limit: limit, Size: declared}
	}
	return b, nil
}

// maxPresize bounds the buffer a declared length alone makes ReadAnswer
// set aside; a longer answer grows it as it comes.
const maxPresize = 8 << 20

// readAll is io.ReadAll of at most max bytes appending to b, whose
// capacity it fills before growing it.
func readAll(r io.Reader, b []byte, max int64) ([]byte, error) {
	if cap(b) == 0 {
		b = make([]byte, 0, 512)
	}
	for int64(len(b)) < max {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // let append pick the growth
		}
		n, err := r.Read(b[len(b):min(int64(cap(b)), max)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}
