package transport

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An answer that declares its length is read into one buffer of that
// size, not into one that grows and is copied on the way (a page of
// payments is read for every 100 of them).
func TestReadAnswerOfDeclaredLengthAllocatesOnce(t *testing.T) {
	body := bytes.Repeat([]byte("x"), 100_000)
	allocs := testing.AllocsPerRun(20, func() {
		b, err := ReadAnswer(io.NopCloser(bytes.NewReader(body)), int64(len(body)), 1<<20)
		if err != nil || len(b) != len(body) {
			t.Fatalf("read %d bytes, %v", len(b), err)
		}
	})
	// Two are the test's reader; one is the buffer.
	assert.LessOrEqual(t, allocs, 3.0)
}

func TestReadAnswerKeepsItsLimitsAndErrors(t *testing.T) {
	read := func(body string, declared, limit int64) ([]byte, error) {
		return ReadAnswer(io.NopCloser(strings.NewReader(body)), declared, limit)
	}
	b, err := read("hello", 5, 10)
	require.NoError(t, err)
	assert.Equal(t, "hello", string(b))
	b, err = read("hello", -1, 10)
	require.NoError(t, err)
	assert.Equal(t, "hello", string(b))
	b, err = read("", 0, 10)
	require.NoError(t, err)
	assert.Empty(t, b)

	_, err = read("hello", 11, 10) // declared too large: refused before reading
	assert.ErrorIs(t, err, ErrAnswerTooLarge)
	_, err = read("hello world", -1, 10)
	assert.ErrorIs(t, err, ErrAnswerTooLarge)
	_, err = read("hello world", 5, 10) // more than declared, past the limit
	assert.ErrorIs(t, err, ErrAnswerTooLarge)

	// A body shorter than declared is an answer cut short: the reader's
	// error comes back, so the client can ask again.
	_, err = ReadAnswer(io.NopCloser(io.MultiReader(strings.NewReader("hel"), errReader{})), 5, 10)
	assert.ErrorIs(t, err, errCut)
}

var errCut = errors.New("connection reset")

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errCut }
