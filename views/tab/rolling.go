package tab

import (
	"time"

	"paydash/ui"
)

// Rolled is s moved on to now when it is a rolling period (ui.Scope.At):
// moved says whether it changed, startMoved whether its start did (rows
// older than the new start leave the list). now zero: not known, s stays.
func Rolled(s ui.Scope, now time.Time) (next ui.Scope, moved, startMoved bool) {
	if now.IsZero() || !s.Rolling() {
		return s, false, false
	}
	next = s.At(now.In(s.Start.Location()))
	return next, !next.End.Equal(s.End) || !next.Start.Equal(s.Start), !next.Start.Equal(s.Start)
}
