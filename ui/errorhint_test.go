package ui

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"paydash/backend"
)

// An unreadable answer points to the request log only when one is being
// written: a hint to a file that does not exist sends a support person
// looking for nothing.
func TestAnUnreadableAnswerNamesTheRequestLogOnlyWhenOneIsWritten(t *testing.T) {
	garbled := &backend.Error{Kind: backend.KindMalformed, Op: "read payment 43019998", Err: errors.New("unexpected end of JSON input")}

	ta := newTestApp(t)
	ta.send(ErrorMsg{Err: garbled})
	assert.Contains(t, unwrapped(ta.screen()), "try again")
	assert.NotContains(t, unwrapped(ta.screen()), "log")

	ta = newTestApp(t, func(c *Config) { c.RequestLog = "/var/log/paydash.jsonl" })
	ta.send(ErrorMsg{Err: garbled})
	assert.Contains(t, unwrapped(ta.screen()), "the request log /var/log/paydash.jsonl records each request")
}
