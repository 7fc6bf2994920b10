package views

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	"paydash/keys"
	"paydash/ui"
)

func TestFirstPageLoads(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.init()
	p := e.tab.(*Payments)
	st := p.Status()
	assert.Equal(t, 100, st.Rows)
	assert.Equal(t, 100, st.Shown)
	assert.False(t, st.Loading)
	assert.False(t, st.AtEnd)
	assert.False(t, st.Refreshed.IsZero())
	assert.EqualValues(t, 1, e.count.pages.Load(), "one page asked")
	assert.Empty(t, e.errors())

	v := ansi.Strip(e.view(80, 24))
	lines := strings.Split(v, "\n")
	assert.Contains(t, lines[0], "ID")
	assert.Contains(t, lines[0], "Status")
	assert.Contains(t, lines[0], "Amount")
	assert.Contains(t, lines[0], "Description")
	first := p.list.table.Rows()[0]
	assert.True(t, strings.HasPrefix(lines[1], "> "+first.ID), lines[1])
	assert.Equal(t, keys.ContextList, e.tab.Context())
}

func TestPagingAsksOnceNearTheEnd(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.init()
	require.EqualValues(t, 1, e.count.pages.Load())
	p := e.tab.(*Payments)

	// Far from the end: no request.
	assert.Nil(t, e.sendHold(keyPress("j")))
	// G goes to the last loaded row: one request, with the loading row.
	cmd := e.sendHold(keyPress("G"))
	require.NotNil(t, cmd)
	assert.True(t, p.list.table.Loading())
	assert.True(t, p.Status().Loading)
	assert.Contains(t, ansi.Strip(e.view(80, 24)), "Loading more payments…")
	// More keys near the end while the page is out: no second request.
	assert.Nil(t, e.sendHold(keyPress("k")))
	assert.Nil(t, e.sendHold(keyPress("j")))
	assert.Nil(t, e.sendHold(keyPress("G")))
	e.run(cmd)
	assert.EqualValues(t, 2, e.count.pages.Load(), "exactly one more page asked")
	assert.Equal(t, 200, p.Status().Rows)
	assert.False(t, p.list.table.Loading())
	// The cursor stayed on row 100, now far from the end.
	assert.Equal(t, 99, p.list.table.Cursor())

	// Walk to the end of the period: the end row shows.
	for i := 0; i < 50 && !p.Status().AtEnd; i++ {
		e.press("G")
	}
	require.True(t, p.Status().AtEnd)
	assert.True(t, p.list.table.End(), "the end row is shown after the last row")
	n := e.count.pages.Load()
	e.press("G", "k", "j")
	assert.Equal(t, n, e.count.pages.Load(), "nothing asked after the end")
}

func TestOldGenerationIsDropped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	first := e.tab.Init(e.scope)
	require.NotNil(t, first)
	stale := first() // the answer for the first merchant, not yet delivered

	other := e.scope
	other.MerchantID = e.srv.Info().MerchantIDs[1]
	e.send(ui.ScopeMsg{Scope: other})
	p := e.tab.(*Payments)
	require.Equal(t, 100, p.Status().Rows)
	for _, r := range p.list.table.Rows() {
		require.Equal(t, other.MerchantID, r.MerchantID)
	}
	e.deliver(stale)
	assert.Equal(t, 100, p.Status().Rows, "the old answer is dropped")
	for _, r := range p.list.table.Rows() {
		assert.Equal(t, other.MerchantID, r.MerchantID)
	}
}

func TestFilterNarrowsAndEscClears(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.init()
	p := e.tab.(*Payments)
	e.press("/")
	assert.Equal(t, keys.ContextFilter, e.tab.Context())
	e.typeText("settled")
	st := p.Status()
	assert.Equal(t, "settled", st.Filter)
	assert.Less(t, st.Shown, st.Rows)
	assert.Positive(t, st.Shown)
	for i := 0; i < st.Shown; i++ {
		p.list.table.SetCursor(i)
		sel, _ := p.list.table.Selected()
		assert.Equal(t, backend.PaymentSettled, sel.Status)
	}
	v := ansi.Strip(e.view(80, 24))
	assert.Contains(t, v, "/ settled")

	// enter keeps the filter, returns to the list and reads the rest of
	// the period for it.
	e.press("enter")
	assert.Equal(t, keys.ContextList, e.tab.Context())
	assert.Equal(t, "settled", p.Status().Filter)
	assert.True(t, p.Status().AtEnd)
	assert.Contains(t, ansi.Strip(e.view(80, 24)), "search: settled")

	// / again, then esc clears it.
	e.press("/")
	e.press("esc")
	assert.Equal(t, keys.ContextList, e.tab.Context())
	assert.Equal(t, "", p.Status().Filter)
	assert.Equal(t, p.Status().Rows, p.Status().Shown)

	// esc in the list clears a kept filter too.
	e.press("/")
	e.typeText("authorized")
	e.press("enter")
	require.Equal(t, "authorized", p.Status().Filter)
	e.press("esc")
	assert.Equal(t, "", p.Status().Filter)
}

func TestPageErrorsLeaveTheListUsable(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.count.fail.Store(1)
	e.init()
	p := e.tab.(*Payments)
	errs := e.errors()
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Err.Error(), "injected failure")
	assert.Equal(t, "check the network and the base URL; press r to try again", errs[0].Hint)
	assert.False(t, p.Status().Loading)
	assert.Equal(t, 0, p.Status().Rows)
	assert.Contains(t, ansi.Strip(e.view(80, 24)), "Could not load this period", "a failed load is not an empty period")

	// r tries again.
	e.send(ui.RefreshMsg{Manual: true})
	assert.Equal(t, 100, p.Status().Rows)

	// A later page fails: the rows stay, the next move near the end retries.
	e.count.fail.Store(1)
	e.press("G")
	assert.Len(t, e.errors(), 2)
	assert.Equal(t, 100, p.Status().Rows)
	assert.False(t, p.list.table.Loading())
	e.press("k")
	assert.Equal(t, 200, p.Status().Rows)
}

func TestRefreshReadsAsManyPagesAsLoaded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.init()
	e.press("G")
	p := e.tab.(*Payments)
	require.Equal(t, 200, p.Status().Rows)
	before := e.count.pages.Load()
	e.send(ui.RefreshMsg{})
	assert.Equal(t, before+2, e.count.pages.Load(), "two pages loaded, two pages re-read")
	assert.Equal(t, 200, p.Status().Rows, "nothing new, nothing added")
}

func TestRefreshBringsNewPaymentToTheTop(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.init()
	p := e.tab.(*Payments)
	e.press("j", "j", "j")
	selID := p.list.table.SelectedID()
	line := selectedLine(e.view(80, 24))
	require.Equal(t, 4, line)

	np := e.newPayment(false, "321.00")
	e.send(ui.RefreshMsg{Manual: true})
	assert.Empty(t, e.errors())
	rows := p.list.table.Rows()
	assert.Equal(t, np.ID, rows[0].ID, "the new payment is at the top")
	assert.Equal(t, 101, p.Status().Rows)
	assert.Equal(t, selID, p.list.table.SelectedID(), "the selection stays on its row")
	assert.Equal(t, line, selectedLine(e.view(80, 24)), "and on its screen line")

	// A payment that changes is updated in place and flashed.
	held := e.newPayment(true, "99.00")
	e.send(ui.RefreshMsg{})
	require.Equal(t, held.ID, p.list.table.Rows()[0].ID)
	_, err := e.srv.Store().CapturePayment(held.ID, nil)
	require.NoError(t, err)
	e.send(ui.RefreshMsg{})
	got := p.list.table.Rows()[0]
	assert.Equal(t, held.ID, got.ID)
	assert.Equal(t, backend.PaymentSettled, got.Status)
	assert.True(t, p.list.table.Flashing(held.ID))
	e.send(ui.TickMsg{Now: time.Now().Add(time.Minute)})
	assert.False(t, p.list.table.Flashing(held.ID))
}

// findSettledWithRefund is a Settled payment of the scope with a refund.
func (e *env) findSettledWithRefund() sandbox.Payment {
	e.t.Helper()
	st := e.srv.Store()
	refunds, _ := st.FilterRefunds(sandbox.RefundFilter{MerchantIDs: []string{e.scope.MerchantID}, Start: e.scope.Start, End: e.scope.End})
	for _, r := range refunds {
		p, err := st.GetPayment(r.PaymentID)
		require.NoError(e.t, err)
		if p.Status == sandbox.PaymentSettled && !p.Created.Before(e.scope.Start) {
			return p
		}
	}
	e.t.Fatal("no refunded payment in the scope")
	return sandbox.Payment{}
}

func TestDetailShowsRefundsAndV1View(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{withV1: true})
	e.size(160, 48)
	e.init()
	sp := e.findSettledWithRefund()
	refunds, err := e.srv.Store().RefundsOfPayment(sp.ID)
	require.NoError(t, err)

	e.send(ui.JumpMsg{Query: sp.ID})
	p := e.tab.(*Payments)
	require.True(t, p.detail.isOpen())
	assert.Equal(t, keys.ContextDetail, e.tab.Context())
	v := ansi.Strip(e.view(160, 48))
	assert.Contains(t, v, "Payment "+sp.ID)
	assert.Contains(t, v, "Refunds")
	for _, r := range refunds {
		assert.Contains(t, v, r.ID)
	}
	assert.Contains(t, v, "v1 view")
	assert.Contains(t, v, "COMPLETE")
	assert.Contains(t, v, "UserIdentifier")
	assert.Contains(t, v, "Refundable")
	assert.Contains(t, v, money.Group(sp.Captured-sp.Refunded, sp.Amount.Currency))
	// Side by side at 160: the list is still there.
	assert.Contains(t, strings.Split(v, "\n")[0], "ID")

	// At 80 columns the pane replaces the list and scrolls.
	full := ansi.Strip(e.view(80, 24))
	assert.NotContains(t, strings.Split(full, "\n")[0], "Description")
	assert.Contains(t, strings.Split(full, "\n")[0], "Payment "+sp.ID)
	assert.Contains(t, strings.Split(full, "\n")[0], "1–23 of")
	e.press("G")
	scrolled := ansi.Strip(e.view(80, 24))
	assert.NotEqual(t, full, scrolled)
	assert.Contains(t, scrolled, "LastUpdate")
	e.press("g")

	// esc closes the pane.
	e.press("esc")
	assert.False(t, p.detail.isOpen())
	assert.Equal(t, keys.ContextList, e.tab.Context())

	// / from the pane closes it and filters the list.
	e.press("enter", "/")
	assert.False(t, p.detail.isOpen())
	assert.Equal(t, keys.ContextFilter, e.tab.Context())
}

func TestRawViewToggles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{withV1: true})
	e.size(120, 30)
	e.init()
	e.press("enter")
	p := e.tab.(*Payments)
	require.True(t, p.detail.isOpen())
	id := p.detail.obj.ID
	require.True(t, p.detail.obj.Detailed)
	plain := ansi.Strip(e.view(120, 30))
	e.press("w")
	raw := ansi.Strip(e.view(120, 30))
	assert.Contains(t, raw, "Payment "+id+" · raw")
	assert.Contains(t, raw, `"id": "`+id+`"`)
	assert.Contains(t, raw, "— v2 answer —")
	e.press("G")
	assert.Contains(t, ansi.Strip(e.view(120, 30)), "PaymentID", "the v1 answer follows the v2 one")
	e.press("w")
	assert.Equal(t, plain, ansi.Strip(e.view(120, 30)))
	// esc leaves the raw view first, then the pane.
	e.press("w", "esc")
	assert.True(t, p.detail.isOpen())
	assert.False(t, p.detail.raw)
	e.press("esc")
	assert.False(t, p.detail.isOpen())
}

func TestAvailableReasons(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.init()
	p := e.tab.(*Payments)
	pos := -1
	for i, r := range p.list.table.Rows() {
		if r.Status == backend.PaymentSettled {
			pos = i
			break
		}
	}
	require.GreaterOrEqual(t, pos, 0)
	p.list.table.SetCursor(pos)
	ok, why := e.tab.Available(keys.ActCapture)
	assert.False(t, ok)
	assert.Equal(t, "only an Authorized payment can be captured (this one is Settled)", why)
	ok, why = e.tab.Available(keys.ActCancelHold)
	assert.False(t, ok)
	assert.Equal(t, "only an Authorized payment's hold can be cancelled (this one is Settled)", why)
	ok, why = e.tab.Available(keys.ActToggleSticker)
	assert.False(t, ok)
	assert.Empty(t, why, "no stickers here")
	ok, why = e.tab.Available(keys.ActRevoke)
	assert.False(t, ok)
	assert.Equal(t, "open a payment (enter) to revoke the saved card it used", why)
	ok, _ = e.tab.Available(keys.ActNew)
	assert.True(t, ok, "a payment link can be made")
	ok, _ = e.tab.Available(keys.ActOpen)
	assert.True(t, ok)

	// Pressing a greyed key says why.
	e.toasts()
	e.press("c")
	ts := e.toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, ui.ToastWarning, ts[0].Level)
	assert.Equal(t, "only an Authorized payment can be captured (this one is Settled)", ts[0].Text)
	_, asked := e.confirmSpec()
	assert.False(t, asked)

	ro := newEnv(t, envOpts{readOnly: true})
	ro.size(80, 24)
	ro.init()
	for _, a := range []keys.Action{keys.ActCapture, keys.ActCancelHold, keys.ActRefund} {
		ok, why = ro.tab.Available(a)
		assert.False(t, ok)
		assert.Contains(t, why, "read-only", a)
	}

	// Without a journal nothing can be sent.
	nj := NewPayments(Deps{Backend: e.b, Keys: keys.Default(), Now: time.Now, Theme: ui.NewTheme(true, true)}).(*Payments)
	ok, why = nj.availableFor(keys.ActCapture, backend.Payment{ID: "1", Status: backend.PaymentAuthorized})
	assert.False(t, ok)
	assert.Contains(t, why, "journal")
}

func TestViewsFitEverySize(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{withV1: true})
	e.size(80, 24)
	e.init()
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {139, 40}, {140, 40}, {160, 48}, {200, 50}, {40, 10}} {
		e.send(ui.SizeMsg{Width: sz[0], Height: sz[1]})
		e.view(sz[0], sz[1])
		e.press("/")
		e.typeText("a")
		e.view(sz[0], sz[1])
		e.press("esc", "enter")
		e.view(sz[0], sz[1])
		e.press("w")
		e.view(sz[0], sz[1])
		e.press("esc", "esc")
	}
	assert.Equal(t, "", e.tab.View(0, 10))
}

// --- golden screens ---------------------------------------------------------

var goldenNow = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

func TestGoldenPayments80x24(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{fixed: goldenNow})
	e.size(80, 24)
	e.init()
	e.press("j", "j")
	goldenCheck(t, "payments_80x24", ansi.Strip(e.view(80, 24)))
}

// At 200x50 the description is as wide as its longest text, no wider:
// the width no column needs stays at the right, not in the middle of a row.
func TestGoldenPayments200x50(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{fixed: goldenNow})
	e.size(200, 50)
	e.init()
	e.press("j", "j")
	v := ansi.Strip(e.view(200, 50))
	goldenCheck(t, "payments_200x50", v)
	assert.NotContains(t, v, "…", "at 200 cells no cell is cut")
	longest := 0
	for _, r := range e.tab.(*Payments).list.table.Rows() {
		longest = max(longest, ansi.StringWidth(r.Description))
	}
	header := strings.Split(v, "\n")[0]
	from, to := strings.Index(header, "Description"), strings.Index(header, "Instrument")
	require.Positive(t, from)
	require.Greater(t, to, from)
	assert.Equal(t, max(longest, len("Description")), ansi.StringWidth(header[from:to])-1,
		"the description column is as wide as its longest text")
}

func TestGoldenPayments160x48(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{fixed: goldenNow})
	e.size(160, 48)
	e.init()
	e.press("j", "enter")
	goldenCheck(t, "payments_160x48", ansi.Strip(e.view(160, 48)))
}

func TestPaymentsOverV1Only(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{v1Only: true})
	e.size(80, 24)
	e.init()
	require.Empty(t, e.errors())
	p := e.tab.(*Payments)
	require.Positive(t, p.Status().Rows)
	sel, _ := p.list.table.Selected()
	assert.True(t, sel.Created.IsZero(), "v1 gives no creation time")
	v := ansi.Strip(e.view(80, 24))
	assert.Contains(t, v, fmtListTime(sel.Updated), "the last update stands in")
	e.press("enter")
	require.True(t, p.detail.isOpen())
	assert.Nil(t, p.detail.err)
	assert.Nil(t, p.refunds.err)
	d := ansi.Strip(e.view(100, 60))
	assert.Contains(t, d, "v1 view")
	assert.Contains(t, d, "Read through     v1")
	e.press("w")
	assert.NotContains(t, ansi.Strip(e.view(100, 60)), "no body yet")
	e.view(160, 48)
	e.view(200, 50)
}

// A list whose first page failed must not say the period is empty.
func TestFailedLoadDoesNotClaimAnEmptyPeriod(t *testing.T) {
	t.Parallel()
	b, err := backend.Open(backend.Config{BaseURL: "https://127.0.0.1:1", V2Token: "x", MerchantIDs: []string{"1001"}})
	require.NoError(t, err)
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = j.Close() })
	now := time.Now()
	e := &env{t: t, j: j, now: time.Now,
		scope: ui.Scope{MerchantID: "1001", Start: now.AddDate(0, 0, -1), End: now.Add(time.Hour), Preset: "today"}}
	e.tab = NewPayments(Deps{Backend: b, Keys: keys.Default(), Journal: j, Now: time.Now, Theme: ui.NewTheme(true, true),
		CheckAfter: noCheckWait})
	e.size(80, 20)
	e.init()
	screen := ansi.Strip(e.tab.View(80, 20))
	assert.Contains(t, screen, "Could not load this period")
	assert.NotContains(t, screen, "No payments in this period")
}

// A payment's pane shows every value whole: a link longer than the pane
// is wide (the payment URL of a payment waiting for confirmation) wraps
// under its label instead of being cut.
func TestPaymentPaneWrapsLongValues(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {200, 50}} {
		e := newEnv(t, envOpts{fixed: goldenNow})
		e.size(sz[0], sz[1])
		e.init()
		p := e.tab.(*Payments)
		var id string
		for _, r := range p.list.table.Rows() {
			if r.Status == backend.PaymentConfirmation {
				id = r.ID
				break
			}
		}
		require.NotEmpty(t, id, "a payment waiting for confirmation")
		_, ok := p.list.selectID(id)
		require.True(t, ok)
		e.press("enter")
		require.True(t, p.detail.isOpen())
		url := p.detail.obj.Confirmation.PaymentURL
		require.Greater(t, len(url), p.detail.inner()-17, "longer than the room right of the label")
		v := ansi.Strip(e.view(sz[0], sz[1]))
		if !strings.Contains(v, "Payment URL") { // below the pane's fold: scroll to it
			for i := 0; i < 40 && !strings.Contains(v, "Payment URL "); i++ {
				e.press("j")
				v = ansi.Strip(e.view(sz[0], sz[1]))
			}
		}
		assert.Equal(t, url, paneValue(v, "Payment URL"), "%dx%d", sz[0], sz[1])
		assert.NotContains(t, v, "…", "%dx%d: no value is cut", sz[0], sz[1])
	}
}
