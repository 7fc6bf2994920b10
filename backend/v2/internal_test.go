package v2

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestBackoffDoublesWithJitterAndIsCapped(t *testing.T) {
	c := &Client{baseBackoff: 200 * time.Millisecond, maxBackoff: maxBackoff}
	for range 200 {
		for attempt, full := range map[int]time.Duration{
			1: 200 * time.Millisecond, 2: 400 * time.Millisecond, 3: 800 * time.Millisecond,
			10: maxBackoff, 70: maxBackoff, // no overflow on silly attempt counts
		} {
			d := c.backoff(attempt)
			assert.GreaterOrEqual(t, d, full/2, "attempt %d", attempt)
			assert.LessOrEqual(t, d, full, "attempt %d", attempt)
		}
	}
	assert.Equal(t, time.Duration(0), (&Client{}).backoff(3), "zero base: immediate")
}

func TestFormatTimeIsUTCWithOptionalFraction(t *testing.T) {
	msk := time.FixedZone("MSK", 3*3600)
	assert.Equal(t, "2024-05-01T00:00:00Z", formatTime(time.Date(2024, 5, 1, 3, 0, 0, 0, msk)))
	assert.Equal(t, "2024-05-01T00:00:00.25Z", formatTime(time.Date(2024, 5, 1, 0, 0, 0, 250_000_000, time.UTC)))
}
