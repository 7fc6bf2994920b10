package viewtest

import (
	"time"
)

// --- golden screens ---------------------------------------------------------

var GoldenNow = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
