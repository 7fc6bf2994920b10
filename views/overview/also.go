package overview

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/views/tab"
)

// Beside the payments, the Overview says where other things stop: refunds
// of the day still pending after refundLate or rejected, holds older than
// holdOld, and stickers switched off. Each count leads to its rows in its
// tab, as the payments' figures do.

const (
	// refundLate is how long a refund may stay Pending before the Overview
	// counts it as late: the service settles one within minutes.
	refundLate = 30 * time.Minute
	// holdOld is how old a hold (an Authorized payment) is when the
	// Overview counts it: money held that long is usually forgotten.
	holdOld = 3 * 24 * time.Hour
	// holdsBack is how far back holds are looked for.
	holdsBack = 30 * 24 * time.Hour
)

// also are the counts beside the payments.
type also struct {
	read          bool // the counts below are known
	refunds       int  // made in the day
	refundsLate   int  // of them, Pending for refundLate or more
	refundsDenied int  // of them, Rejected
	holds         int  // Authorized payments created holdOld ago or more
	stickers      int
	stickersOff   int
	err           error
}

// revokedToday counts the tokens paydash knows (views/tab.TokenMemo), and
// of them those it saw revoked today: the service cannot list tokens, so
// these are the ones read, looked up or revoked through paydash.
func revokedToday(memo tab.TokenMemo, merchants []string, now time.Time) (revoked, known int) {
	dayStart := now.Truncate(time.Hour).Add(-(dayHours - 1) * time.Hour)
	for _, m := range merchants {
		for _, t := range memo.List(m) {
			known++
			if t.Token.Status == backend.TokenRevoked && !t.Token.LastSeen.Before(dayStart) {
				revoked++
			}
		}
	}
	return revoked, known
}

// alsoMsg is what readAlso found.
type alsoMsg struct {
	stamp tab.Stamp
	also  also
}

// readAlso reads the day's refunds, the old holds and the stickers of
// merchants, and counts them at now.
func readAlso(ctx context.Context, stamp tab.Stamp, b backend.Backend, merchants []string, now time.Time) tea.Cmd {
	return func() tea.Msg {
		var a also
		dayStart := now.Truncate(time.Hour).Add(-(dayHours - 1) * time.Hour)
		for _, m := range merchants {
			refunds, err := backend.Collect(ctx, b.ListRefunds(backend.PeriodQuery{MerchantID: m, Start: dayStart, End: now.Add(time.Hour)}))
			a.countRefunds(refunds, now)
			holds, err2 := readHolds(ctx, b, m, now)
			a.holds += len(holds)
			stickers, err3 := backend.Collect(ctx, b.ListStickers(backend.StickerQuery{MerchantID: m}))
			a.countStickers(stickers)
			if a.err = firstErr(err, err2, err3); a.err != nil {
				break
			}
		}
		a.read = a.err == nil
		return alsoMsg{stamp: stamp, also: a}
	}
}

// readHolds are m's Authorized payments created between holdsBack and
// holdOld before now: asked of the service by state where it can, else
// picked from the list.
//
// The period is counted from now to the minute, so that the dashboards of
// paydash serve reading it in the same minute ask the same question, which
// its shared list pages answer once (backend/pagecache).
func readHolds(ctx context.Context, b backend.Backend, m string, now time.Time) ([]backend.Payment, error) {
	now = now.Truncate(time.Minute)
	q := backend.PeriodQuery{MerchantID: m, Start: now.Add(-holdsBack), End: now.Add(-holdOld)}
	p, ok := b.FilterPayments(q, backend.PaymentFilter{Statuses: []backend.PaymentStatus{backend.PaymentAuthorized}})
	if !ok {
		p = b.ListPayments(q)
	}
	rows, err := backend.Collect(ctx, p)
	holds := rows[:0]
	for _, r := range rows {
		if r.Status == backend.PaymentAuthorized {
			holds = append(holds, r)
		}
	}
	return holds, err
}

func (a *also) countRefunds(refunds []backend.Refund, now time.Time) {
	for _, r := range refunds {
		a.refunds++
		switch {
		case r.Status == backend.RefundRejected:
			a.refundsDenied++
		case r.Status == backend.RefundPending && !r.Created.IsZero() && now.Sub(r.Created) >= refundLate:
			a.refundsLate++
		}
	}
}

func (a *also) countStickers(stickers []backend.Sticker) {
	for _, s := range stickers {
		a.stickers++
		if s.Status != "Active" {
			a.stickersOff++
		}
	}
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
