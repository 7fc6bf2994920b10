package stickers

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// --- the sticker (Stickers tab) -----------------------------------------------

func TestCreateStickerFromStickersTab(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true, Tab: New}, 120, 40)
	merchant := e.Scope.MerchantID
	before := e.StickersOf(merchant)
	assert.Equal(t, "New sticker", e.Tab.(viewtest.ActionTargeter).ActionTarget(keys.ActNew))

	d := e.OpenNew()
	fm := d.M.(*tab.FormModal)
	assert.Contains(t, d.Screen(), "Sticker · page 1 of 2")
	d.Press("enter", "enter") // SBP, no cashlink
	d.Press("enter")
	d.Shows("Amount, RUB", "enter the amount")
	d.Field("abc")
	d.Shows("Amount, RUB", "“a” is a letter: an amount has digits only")
	d.Clear()
	d.Field("99.999")
	d.Shows("Amount, RUB", "RUB amounts have at most 2 decimals")
	d.Clear()
	d.Field("150")
	d.Press("enter")
	d.Shows("Description", "enter a description of the sticker")
	d.Field("Coffee to go")

	assert.Contains(t, d.Screen(), "Details · page 2 of 2")
	d.Field("SKU-42")
	d.Press("enter") // no payment purpose
	d.Field("http://shop.example.com/sbp")
	d.Shows("Callback address (optional, https)", "a callback address must start with https://")
	assert.Len(t, e.StickersOf(merchant), len(before), "nothing is sent while a field is wrong")
	d.Clear()
	d.Press("enter")

	summary := []string{
		"Merchant: " + merchant,
		"Sticker type: Sbp",
		"Cashlink: no",
		"Amount: 150.00 RUB",
		"Description: Coffee to go",
		"Product code: SKU-42",
	}
	scr := d.Confirms(fm.Form, "Create this sticker?", summary)
	assert.Contains(t, scr, "Create 150.00 RUB")
	assert.Empty(t, e.Journal(), "nothing is sent before y")

	d.Confirm()
	after := e.StickersOf(merchant)
	require.Len(t, after, len(before)+1, "exactly one sticker made")
	var made backend.Sticker
	for id, s := range after {
		if _, old := before[id]; !old {
			made = s
		}
	}
	assert.Equal(t, "Coffee to go", made.Description, "the new sticker is listed")
	assert.Equal(t, "SKU-42", made.ProductCode)
	assert.Equal(t, money.Amount{Value: money.MustParse("150"), Currency: "RUB"}, made.Amount)
	assert.Equal(t, "Active", made.Status)
	assert.Equal(t, "Sbp", made.StickerType)
	require.NotEmpty(t, made.Payload)

	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, `Sticker "Coffee to go" for 150.00 RUB made: sticker `+made.ID+", "+made.Payload+" — Active", ts[0].Text)
	j := e.Journal()
	require.Len(t, j, 2)
	assert.Equal(t, string(backend.ActionCreateSticker), j[0].Action)
	assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, []string{j[0].Phase, j[1].Phase})

	r := e.Result()
	big := viewtest.PlainLines(r.View(120, 50))
	assert.Contains(t, big, "Sticker made")
	assert.Contains(t, big, "Sticker "+made.ID+" for 150.00 RUB · Active")
	assert.Contains(t, big, made.Payload)
	assert.Equal(t, made.Payload, viewtest.QRIn(t, big))
	// At 80×24 an SBP link's code does not fit: the dialog says how much
	// taller the window must be, and still shows the whole address.
	small := viewtest.PlainLines(r.View(76, 21))
	assert.Contains(t, small, "more lines: make the window taller")
	assert.Contains(t, strings.ReplaceAll(strings.Join(viewtest.Body(small), ""), " ", ""), made.Payload)

	// The tab lists it.
	s := e.Tab.(*Stickers)
	require.True(t, s.List.Table.SelectByID(made.ID), "the new sticker is in the list")
	row, _ := s.List.Selected()
	assert.Equal(t, merchant, row.MerchantID)
	assert.Equal(t, "Coffee to go", row.Description)
}

// lossyCreates makes the sticker but loses the first answer.
type lossyCreates struct {
	backend.Backend
	lose  atomic.Int32
	calls atomic.Int32
}

func (l *lossyCreates) CreateSticker(ctx context.Context, r backend.StickerRequest) (backend.Sticker, error) {
	l.calls.Add(1)
	s, err := l.Backend.CreateSticker(ctx, r)
	if err == nil && l.lose.Add(-1) >= 0 {
		return backend.Sticker{}, &backend.Error{Kind: backend.KindUnavailable, Op: "create sticker", Message: "connection reset"}
	}
	return s, err
}

// A create whose answer is lost is found out by asking again with the same
// idempotency key: one sticker, shown once it is known, never a failure.
func TestCreateStickerWithALostAnswerIsFoundOut(t *testing.T) {
	t.Parallel()
	lossy := &lossyCreates{}
	lossy.lose.Store(1)
	e := startedEnv(t, viewtest.Opts{Changes: true, Tab: New, Wrap: func(b backend.Backend) backend.Backend {
		lossy.Backend = b
		return lossy
	}}, 120, 40)
	before := e.StickersOf(e.Scope.MerchantID)
	d := e.OpenNew()
	d.Press("enter", "enter")
	d.Field("75")
	d.Field("Lost and found")
	d.Press("enter", "enter", "enter")
	d.Confirm()

	after := e.StickersOf(e.Scope.MerchantID)
	require.Len(t, after, len(before)+1, "exactly one sticker, though it was asked for twice")
	assert.Equal(t, int32(2), lossy.calls.Load(), "asked again once")
	ts := e.Toasts()
	require.Len(t, ts, 2)
	assert.Equal(t, ui.ToastWarning, ts[0].Level)
	assert.Contains(t, ts[0].Text, `Sticker "Lost and found" for 75.00 RUB: outcome unknown — checking`)
	assert.Equal(t, ui.ToastSuccess, ts[1].Level)
	assert.Contains(t, ts[1].Text, `Sticker "Lost and found" for 75.00 RUB made: sticker `)
	assert.Empty(t, e.Errors(), "never shown as a failure")
	phases := []string{}
	for _, l := range e.Journal() {
		phases = append(phases, l.Phase)
	}
	assert.Equal(t, []string{journal.PhaseSent, journal.PhaseUnknown, journal.PhaseDone}, phases)
	var made backend.Sticker
	for id, st := range after {
		if _, old := before[id]; !old {
			made = st
		}
	}
	assert.Equal(t, "Lost and found", made.Description)
	r := e.Result()
	big := viewtest.PlainLines(r.View(120, 50))
	assert.Contains(t, big, "Sticker "+made.ID+" for 75.00 RUB · Active", "the result dialog opens once it is known")
	assert.Equal(t, made.Payload, viewtest.QRIn(t, big))
}
