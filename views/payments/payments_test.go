package payments

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
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

func TestFirstPageLoads(t *testing.T) {
	t.Parallel()
	e, p := started(t, viewtest.Opts{}, 80, 24)
	st := p.Status()
	assert.Equal(t, 100, st.Rows)
	assert.Equal(t, 100, st.Shown)
	assert.False(t, st.Loading)
	assert.False(t, st.AtEnd)
	assert.False(t, st.Refreshed.IsZero())
	assert.EqualValues(t, 1, e.Count.Pages.Load(), "one page asked")
	assert.Empty(t, e.Errors())

	v := ansi.Strip(e.View(80, 24))
	lines := strings.Split(v, "\n")
	assert.Contains(t, lines[0], "ID")
	assert.Contains(t, lines[0], "Status")
	assert.Contains(t, lines[0], "Amount")
	assert.Contains(t, lines[0], "Description")
	first := p.List.Table.Rows()[0]
	assert.True(t, strings.HasPrefix(lines[1], "> "+first.ID), lines[1])
	assert.Equal(t, keys.ContextList, e.Tab.Context())
}

func TestPagingAsksOnceNearTheEnd(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{}, 80, 24)
	require.EqualValues(t, 1, e.Count.Pages.Load())
	p := e.Tab.(*Payments)

	// Far from the end: no request.
	assert.Nil(t, e.SendHold(viewtest.KeyPress("j")))
	// G goes to the last loaded row: one request, with the loading row.
	cmd := e.SendHold(viewtest.KeyPress("G"))
	require.NotNil(t, cmd)
	assert.True(t, p.List.Table.Loading())
	assert.True(t, p.Status().Loading)
	assert.Contains(t, ansi.Strip(e.View(80, 24)), "Loading more payments…")
	// More keys near the end while the page is out: no second request.
	assert.Nil(t, e.SendHold(viewtest.KeyPress("k")))
	assert.Nil(t, e.SendHold(viewtest.KeyPress("j")))
	assert.Nil(t, e.SendHold(viewtest.KeyPress("G")))
	e.Run(cmd)
	assert.EqualValues(t, 2, e.Count.Pages.Load(), "exactly one more page asked")
	assert.Equal(t, 200, p.Status().Rows)
	assert.False(t, p.List.Table.Loading())
	// The cursor stayed on row 100, now far from the end.
	assert.Equal(t, 99, p.List.Table.Cursor())

	// Walk to the end of the period: the end row shows.
	for i := 0; i < 50 && !p.Status().AtEnd; i++ {
		e.Press("G")
	}
	require.True(t, p.Status().AtEnd)
	assert.True(t, p.List.Table.End(), "the end row is shown after the last row")
	n := e.Count.Pages.Load()
	e.Press("G", "k", "j")
	assert.Equal(t, n, e.Count.Pages.Load(), "nothing asked after the end")
}

func TestOldGenerationIsDropped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{})
	e.Size(80, 24)
	first := e.Tab.Init(e.Scope)
	require.NotNil(t, first)
	stale := first() // the answer for the first merchant, not yet delivered

	other := e.Scope
	other.MerchantID = e.Info().MerchantIDs[1]
	e.Send(ui.ScopeMsg{Scope: other})
	p := e.Tab.(*Payments)
	require.Equal(t, 100, p.Status().Rows)
	for _, r := range p.List.Table.Rows() {
		require.Equal(t, other.MerchantID, r.MerchantID)
	}
	e.Deliver(stale)
	assert.Equal(t, 100, p.Status().Rows, "the old answer is dropped")
	for _, r := range p.List.Table.Rows() {
		assert.Equal(t, other.MerchantID, r.MerchantID)
	}
}

func TestFilterNarrowsAndEscClears(t *testing.T) {
	t.Parallel()
	e, p := started(t, viewtest.Opts{}, 80, 24)
	e.Press("/")
	assert.Equal(t, keys.ContextFilter, e.Tab.Context())
	e.TypeText("settled")
	st := p.Status()
	assert.Equal(t, "settled", st.Filter)
	assert.Less(t, st.Shown, st.Rows)
	assert.Positive(t, st.Shown)
	for i := 0; i < st.Shown; i++ {
		p.List.Table.SetCursor(i)
		sel, _ := p.List.Table.Selected()
		assert.Equal(t, backend.PaymentSettled, sel.Status)
	}
	v := ansi.Strip(e.View(80, 24))
	assert.Contains(t, v, "/ settled")

	// enter keeps the filter, returns to the list and reads the rest of
	// the period for it.
	e.Press("enter")
	assert.Equal(t, keys.ContextList, e.Tab.Context())
	assert.Equal(t, "settled", p.Status().Filter)
	assert.True(t, p.Status().AtEnd)
	assert.Contains(t, ansi.Strip(e.View(80, 24)), "search: settled")

	// / again, then esc clears it.
	e.Press("/")
	e.Press("esc")
	assert.Equal(t, keys.ContextList, e.Tab.Context())
	assert.Equal(t, "", p.Status().Filter)
	assert.Equal(t, p.Status().Rows, p.Status().Shown)

	// esc in the list clears a kept filter too.
	e.Press("/")
	e.TypeText("authorized")
	e.Press("enter")
	require.Equal(t, "authorized", p.Status().Filter)
	e.Press("esc")
	assert.Equal(t, "", p.Status().Filter)
}

func TestPageErrorsLeaveTheListUsable(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{})
	e.Size(80, 24)
	e.Count.Fail.Store(1)
	e.Init()
	p := e.Tab.(*Payments)
	errs := e.Errors()
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Err.Error(), "injected failure")
	assert.Equal(t, "check the network and the base URL; press r to try again", errs[0].Hint)
	assert.False(t, p.Status().Loading)
	assert.Equal(t, 0, p.Status().Rows)
	assert.Contains(t, ansi.Strip(e.View(80, 24)), "Could not load this period", "a failed load is not an empty period")

	// r tries again.
	e.Send(ui.RefreshMsg{Manual: true})
	assert.Equal(t, 100, p.Status().Rows)

	// A later page fails: the rows stay, the next move near the end retries.
	e.Count.Fail.Store(1)
	e.Press("G")
	assert.Len(t, e.Errors(), 2)
	assert.Equal(t, 100, p.Status().Rows)
	assert.False(t, p.List.Table.Loading())
	e.Press("k")
	assert.Equal(t, 200, p.Status().Rows)
}

func TestRefreshReadsAsManyPagesAsLoaded(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{}, 80, 24)
	e.Press("G")
	p := e.Tab.(*Payments)
	require.Equal(t, 200, p.Status().Rows)
	before := e.Count.Pages.Load()
	e.Send(ui.RefreshMsg{})
	assert.Equal(t, before+2, e.Count.Pages.Load(), "two pages loaded, two pages re-read")
	assert.Equal(t, 200, p.Status().Rows, "nothing new, nothing added")
}

func TestRefreshBringsNewPaymentToTheTop(t *testing.T) {
	t.Parallel()
	e, p := started(t, viewtest.Opts{Changes: true}, 80, 24)
	e.Press("j", "j", "j")
	selID := p.List.Table.SelectedID()
	line := viewtest.SelectedLine(e.View(80, 24))
	require.Equal(t, 4, line)

	np := e.NewPayment(false, "321.00")
	e.Send(ui.RefreshMsg{Manual: true})
	assert.Empty(t, e.Errors())
	rows := p.List.Table.Rows()
	assert.Equal(t, np.ID, rows[0].ID, "the new payment is at the top")
	assert.Equal(t, 101, p.Status().Rows)
	assert.Equal(t, selID, p.List.Table.SelectedID(), "the selection stays on its row")
	assert.Equal(t, line, viewtest.SelectedLine(e.View(80, 24)), "and on its screen line")

	// A payment that changes is updated in place and flashed.
	held := e.NewPayment(true, "99.00")
	e.Send(ui.RefreshMsg{})
	require.Equal(t, held.ID, p.List.Table.Rows()[0].ID)
	_, err := e.Sandbox().Store().CapturePayment(held.ID, nil)
	require.NoError(t, err)
	e.Send(ui.RefreshMsg{})
	got := p.List.Table.Rows()[0]
	assert.Equal(t, held.ID, got.ID)
	assert.Equal(t, backend.PaymentSettled, got.Status)
	assert.True(t, p.List.Table.Flashing(held.ID))
	e.Send(ui.TickMsg{Now: time.Now().Add(time.Minute)})
	assert.False(t, p.List.Table.Flashing(held.ID))
}

// findSettledWithRefund is a Settled payment of the scope with a refund.
func (e *env) findSettledWithRefund() sandbox.Payment {
	e.T.Helper()
	st := e.Store()
	refunds, _ := st.FilterRefunds(sandbox.RefundFilter{MerchantIDs: []string{e.Scope.MerchantID}, Start: e.Scope.Start, End: e.Scope.End})
	for _, r := range refunds {
		p, err := st.GetPayment(r.PaymentID)
		require.NoError(e.T, err)
		if p.Status == sandbox.PaymentSettled && !p.Created.Before(e.Scope.Start) {
			return p
		}
	}
	e.T.Fatal("no refunded payment in the scope")
	return sandbox.Payment{}
}

// On the golden clock: the first merchant of the seed has few refunds (4
// to 6 in 30 days), and at some clocks none of a Settled payment of the
// scope (2026-08-23 00:10 UTC), or none at all (2026-02-13 19:27:07 UTC).
func TestDetailShowsRefundsAndV1View(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{WithV1: true, Fixed: viewtest.GoldenNow}, 160, 48)
	sp := e.findSettledWithRefund()
	refunds, err := e.Store().RefundsOfPayment(sp.ID)
	require.NoError(t, err)

	e.Send(ui.JumpMsg{Query: sp.ID})
	p := e.Tab.(*Payments)
	require.True(t, p.Pane.IsOpen())
	assert.Equal(t, keys.ContextDetail, e.Tab.Context())
	v := ansi.Strip(e.View(160, 48))
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
	full := ansi.Strip(e.View(80, 24))
	assert.NotContains(t, strings.Split(full, "\n")[0], "Description")
	assert.Contains(t, strings.Split(full, "\n")[0], "Payment "+sp.ID)
	assert.Contains(t, strings.Split(full, "\n")[0], "1–23 of")
	e.Press("G")
	scrolled := ansi.Strip(e.View(80, 24))
	assert.NotEqual(t, full, scrolled)
	assert.Contains(t, scrolled, "LastUpdate")
	e.Press("g")

	// esc closes the pane.
	e.Press("esc")
	assert.False(t, p.Pane.IsOpen())
	assert.Equal(t, keys.ContextList, e.Tab.Context())

	// / from the pane closes it and filters the list.
	e.Press("enter", "/")
	assert.False(t, p.Pane.IsOpen())
	assert.Equal(t, keys.ContextFilter, e.Tab.Context())
}

func TestRawViewToggles(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{WithV1: true}, 120, 30)
	e.Press("enter")
	p := e.Tab.(*Payments)
	require.True(t, p.Pane.IsOpen())
	id := p.Pane.Obj.ID
	require.True(t, p.Pane.Obj.Detailed)
	plain := ansi.Strip(e.View(120, 30))
	e.Press("w")
	raw := ansi.Strip(e.View(120, 30))
	assert.Contains(t, raw, "Payment "+id+" · raw")
	assert.Contains(t, raw, `"id": "`+id+`"`)
	assert.Contains(t, raw, "— v2 answer —")
	e.Press("G")
	assert.Contains(t, ansi.Strip(e.View(120, 30)), "PaymentID", "the v1 answer follows the v2 one")
	e.Press("w")
	assert.Equal(t, plain, ansi.Strip(e.View(120, 30)))
	// esc leaves the raw view first, then the pane.
	e.Press("w", "esc")
	assert.True(t, p.Pane.IsOpen())
	assert.False(t, p.Pane.Raw)
	e.Press("esc")
	assert.False(t, p.Pane.IsOpen())
}

func TestAvailableReasons(t *testing.T) {
	t.Parallel()
	e, p := started(t, viewtest.Opts{}, 80, 24)
	pos := -1
	for i, r := range p.List.Table.Rows() {
		if r.Status == backend.PaymentSettled {
			pos = i
			break
		}
	}
	require.GreaterOrEqual(t, pos, 0)
	p.List.Table.SetCursor(pos)
	ok, why := e.Tab.Available(keys.ActCapture)
	assert.False(t, ok)
	assert.Equal(t, "only an Authorized payment can be captured (this one is Settled)", why)
	ok, why = e.Tab.Available(keys.ActCancelHold)
	assert.False(t, ok)
	assert.Equal(t, "only an Authorized payment's hold can be cancelled (this one is Settled)", why)
	ok, why = e.Tab.Available(keys.ActToggleSticker)
	assert.False(t, ok)
	assert.Empty(t, why, "no stickers here")
	ok, why = e.Tab.Available(keys.ActRevoke)
	assert.False(t, ok)
	assert.Equal(t, "open a payment (enter) to revoke the saved card it used", why)
	ok, _ = e.Tab.Available(keys.ActNew)
	assert.True(t, ok, "a payment link can be made")
	ok, _ = e.Tab.Available(keys.ActOpen)
	assert.True(t, ok)

	// Pressing a greyed key says why.
	e.Toasts()
	e.Press("c")
	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, ui.ToastWarning, ts[0].Level)
	assert.Equal(t, "only an Authorized payment can be captured (this one is Settled)", ts[0].Text)
	_, asked := e.ConfirmSpec()
	assert.False(t, asked)

	ro := startedEnv(t, viewtest.Opts{ReadOnly: true}, 80, 24)
	for _, a := range []keys.Action{keys.ActCapture, keys.ActCancelHold, keys.ActRefund} {
		ok, why = ro.Tab.Available(a)
		assert.False(t, ok)
		assert.Contains(t, why, "read-only", a)
	}

	// Without a journal nothing can be sent.
	nj := New(tab.Deps{Backend: e.B, Keys: keys.Default(), Now: time.Now, Theme: ui.NewTheme(true, true)}).(*Payments)
	ok, why = nj.availableFor(keys.ActCapture, backend.Payment{ID: "1", Status: backend.PaymentAuthorized})
	assert.False(t, ok)
	assert.Contains(t, why, "journal")
}

func TestViewsFitEverySize(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{WithV1: true}, 80, 24)
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {139, 40}, {140, 40}, {160, 48}, {200, 50}, {40, 10}} {
		e.Send(ui.SizeMsg{Width: sz[0], Height: sz[1]})
		e.View(sz[0], sz[1])
		e.Press("/")
		e.TypeText("a")
		e.View(sz[0], sz[1])
		e.Press("esc", "enter")
		e.View(sz[0], sz[1])
		e.Press("w")
		e.View(sz[0], sz[1])
		e.Press("esc", "esc")
	}
	assert.Equal(t, "", e.Tab.View(0, 10))
}

func TestGoldenPayments80x24(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, 80, 24)
	e.Press("j", "j")
	viewtest.GoldenCheck(t, "payments_80x24", ansi.Strip(e.View(80, 24)))
}

// At 200x50 the description is as wide as its longest text, no wider:
// the width no column needs stays at the right, not in the middle of a row.
func TestGoldenPayments200x50(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, 200, 50)
	e.Press("j", "j")
	v := ansi.Strip(e.View(200, 50))
	viewtest.GoldenCheck(t, "payments_200x50", v)
	assert.NotContains(t, v, "…", "at 200 cells no cell is cut")
	longest := 0
	for _, r := range e.Tab.(*Payments).List.Table.Rows() {
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
	e := startedEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, 160, 48)
	e.Press("j", "enter")
	viewtest.GoldenCheck(t, "payments_160x48", ansi.Strip(e.View(160, 48)))
}

func TestPaymentsOverV1Only(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{V1Only: true}, 80, 24)
	require.Empty(t, e.Errors())
	p := e.Tab.(*Payments)
	require.Positive(t, p.Status().Rows)
	sel, _ := p.List.Table.Selected()
	assert.True(t, sel.Created.IsZero(), "v1 gives no creation time")
	v := ansi.Strip(e.View(80, 24))
	assert.Contains(t, v, tab.FmtListTime(sel.Updated), "the last update stands in")
	e.Press("enter")
	require.True(t, p.Pane.IsOpen())
	assert.Nil(t, p.Pane.Err)
	assert.Nil(t, p.refunds.err)
	d := ansi.Strip(e.View(100, 60))
	assert.Contains(t, d, "v1 view")
	assert.Contains(t, d, "Read through     v1")
	e.Press("w")
	assert.NotContains(t, ansi.Strip(e.View(100, 60)), "no body yet")
	e.View(160, 48)
	e.View(200, 50)
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
	e := &env{&viewtest.Env{T: t, J: j, Now: time.Now,
		Scope: ui.Scope{MerchantID: "1001", Start: now.AddDate(0, 0, -1), End: now.Add(time.Hour), Preset: "today"}}}
	e.Tab = New(tab.Deps{Backend: b, Keys: keys.Default(), Journal: j, Now: time.Now, Theme: ui.NewTheme(true, true),
		CheckAfter: viewtest.NoCheckWait})
	e.Size(80, 20)
	e.Init()
	screen := ansi.Strip(e.Tab.View(80, 20))
	assert.Contains(t, screen, "Could not load this period")
	assert.NotContains(t, screen, "No payments in this period")
}

// A payment's pane shows every value whole: a link longer than the pane
// is wide (the payment URL of a payment waiting for confirmation) wraps
// under its label instead of being cut.
func TestPaymentPaneWrapsLongValues(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {200, 50}} {
		e := newEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow})
		e.Size(sz[0], sz[1])
		e.Init()
		p := e.Tab.(*Payments)
		var id string
		for _, r := range p.List.Table.Rows() {
			if r.Status == backend.PaymentConfirmation {
				id = r.ID
				break
			}
		}
		require.NotEmpty(t, id, "a payment waiting for confirmation")
		_, ok := p.List.SelectID(id)
		require.True(t, ok)
		e.Press("enter")
		require.True(t, p.Pane.IsOpen())
		url := p.Pane.Obj.Confirmation.PaymentURL
		require.Greater(t, len(url), p.Pane.Inner()-17, "longer than the room right of the label")
		v := ansi.Strip(e.View(sz[0], sz[1]))
		if !strings.Contains(v, "Payment URL") { // below the pane's fold: scroll to it
			for i := 0; i < 40 && !strings.Contains(v, "Payment URL "); i++ {
				e.Press("j")
				v = ansi.Strip(e.View(sz[0], sz[1]))
			}
		}
		assert.Equal(t, url, viewtest.PaneValue(v, "Payment URL"), "%dx%d", sz[0], sz[1])
		assert.NotContains(t, v, "…", "%dx%d: no value is cut", sz[0], sz[1])
	}
}

// started is a fresh env with o's tab (this package's when o names none),
// sized w × h and started, and that tab.
func started(t *testing.T, o viewtest.Opts, w, h int) (*env, *Payments) {
	if o.Tab == nil {
		o.Tab = New
	}
	e := startedEnv(t, o, w, h)
	return e, e.Tab.(*Payments)
}
