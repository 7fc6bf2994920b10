package overview

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/views/tab"
)

// What the Overview reads: the payments of the day that ends now, for its
// merchant or for every merchant, every page of them; and, for declines
// whose list item carries no result code, the payment itself, a few at a
// time, newest first, each once.
//
// How often. The whole day (and the refunds, holds and stickers) at start,
// when the merchant changes, at r, and every fullEvery; in between, a
// refresh reads only the last recentHours, where new payments come and
// statuses still move. Until it is first shown, only the day's payments
// are read (for "! N"), not the rest. While another tab is shown, it reads
// the recent hours every backgroundEvery on the shell's tick, so that the
// "! N" of the other tabs' status bar stays true.

const (
	recentHours     = 2
	fullEvery       = 5 * time.Minute
	backgroundEvery = time.Minute
)

// codeReadsAtOnce is how many payments are read at once for their result
// code.
const codeReadsAtOnce = 4

// dayMsg is the day's payments, or why they could not be read.
type dayMsg struct {
	stamp tab.Stamp
	now   time.Time
	rows  []backend.Payment
	err   error
}

// codeMsg is a declined payment read for its result code.
type codeMsg struct {
	stamp tab.Stamp
	id    string
	p     backend.Payment
	err   error
}

// readDay reads every page of [start, now+1h) for merchants: the day, or
// its last hours.
func readDay(ctx context.Context, stamp tab.Stamp, b backend.Backend, merchants []string, start, now time.Time) tea.Cmd {
	return func() tea.Msg {
		msg := dayMsg{stamp: stamp, now: now}
		for _, m := range merchants {
			rows, err := backend.Collect(ctx, b.ListPayments(backend.PeriodQuery{MerchantID: m, Start: start, End: now.Add(time.Hour)}))
			msg.rows = append(msg.rows, rows...)
			if err != nil {
				msg.err = err
				break
			}
		}
		return msg
	}
}

// readCode reads payment id for its result code.
func readCode(ctx context.Context, stamp tab.Stamp, b backend.Backend, id string) tea.Cmd {
	return func() tea.Msg {
		p, err := b.GetPayment(ctx, id)
		return codeMsg{stamp: stamp, id: id, p: p, err: err}
	}
}
