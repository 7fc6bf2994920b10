package tokens

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/backend/known"
	"paydash/backend/money"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/payments"
	"paydash/views/tab"
)

// serviceToken is the token as the service has it now.
func (e *env) serviceToken(id string) backend.Token {
	e.T.Helper()
	tok, err := e.B.GetToken(context.Background(), id)
	require.NoError(e.T, err)
	return tok
}

// host is the service key under which the tabs remember tokens.
func (e *env) host() string { return e.B.Describe().Host }

// tokenRow is the Tokens tab's row of token id.
func (e *env) tokenRow(id string) (tab.TokenView, bool) {
	for _, r := range e.Tab.(*Tokens).List.Table.Rows() {
		if r.ID == id {
			return r, true
		}
	}
	return tab.TokenView{}, false
}

// halves splits a view w cells wide, drawn with the pane beside the
// list, into the list's side and the pane's, without styles.
func halves(view string, w int) (list, pane string) {
	lw := w - tab.PaneWidth(w)
	var l, r []string
	for _, line := range strings.Split(view, "\n") {
		l = append(l, ansi.Strip(ansi.Cut(line, 0, lw)))
		r = append(r, ansi.Strip(ansi.Cut(line, lw, w)))
	}
	return strings.Join(l, "\n"), strings.Join(r, "\n")
}

// listSide and paneSide are the halves of the tab's view at w × h.
func (e *env) listSide(w, h int) string { l, _ := halves(e.View(w, h), w); return l }
func (e *env) paneSide(w, h int) string { _, p := halves(e.View(w, h), w); return p }

// tokenSection is the Token section of the Payments tab's pane, without
// styles: from its heading to the next (Refunds).
func tokenSection(p *payments.Payments) string {
	var out []string
	in := false
	for _, l := range p.DetailLines() {
		l = ansi.Strip(l)
		switch strings.TrimSpace(l) {
		case "Token":
			in = true
		case "Refunds":
			in = false
		}
		if in {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// withKnown makes the Tokens tab with store as Deps.Known.
func withKnown(store *known.Store) func(tab.Deps) ui.Tab {
	return func(d tab.Deps) ui.Tab {
		d.Known = store
		return New(d)
	}
}

// twoTabs are a Payments tab and a Tokens tab built from the same Deps
// (one known.Store, one InFlight), as main builds them; each has its own
// env to collect what it sends the shell.
type twoTabs struct {
	pay, tok *env
	store    *known.Store
	flights  *tab.InFlight
}

func newTwoTabs(t *testing.T, o viewtest.Opts) twoTabs {
	t.Helper()
	tt := twoTabs{store: known.NewMemory(), flights: tab.NewInFlight()}
	var deps tab.Deps
	o.Tab = func(d tab.Deps) ui.Tab {
		d.Known, d.InFlight = tt.store, tt.flights
		deps = d
		return payments.New(d)
	}
	tt.pay = newEnv(t, o)
	p := tt.pay
	tt.tok = &env{p.Another(t, New(deps))}
	return tt
}

// holdRevoke holds revocations until released, telling when one arrived.
type holdRevoke struct {
	backend.Backend
	arrived chan string
	hold    chan struct{}
	once    sync.Once
}

func newHoldRevoke(t *testing.T) *holdRevoke {
	h := &holdRevoke{arrived: make(chan string, 4), hold: make(chan struct{})}
	t.Cleanup(h.release) // a failed test does not leave the command blocked
	return h
}

func (h *holdRevoke) release() { h.once.Do(func() { close(h.hold) }) }

func (h *holdRevoke) RevokeToken(ctx context.Context, id string) (backend.Token, error) {
	h.arrived <- id
	<-h.hold
	return h.Backend.RevokeToken(ctx, id)
}

// runAsync runs a command in the background, as the program does, and
// returns a function that waits for its message.
func runAsync(cmd tea.Cmd) func() tea.Msg {
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	return func() tea.Msg { return <-done }
}

func phases(j []journal.Entry) []string {
	var out []string
	for _, l := range j {
		out = append(out, l.Phase)
	}
	return out
}

// --- lookup by id (":") ------------------------------------------------------------

func TestTokenLookupOpensItAndRemembersIt(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "known-tokens.json")
	store, err := known.Open(path)
	require.NoError(t, err)
	e, tt := started(t, viewtest.Opts{Changes: true, Tab: withKnown(store)}, 140, 30)
	assert.Zero(t, tt.List.Table.Len(), "nothing is known yet")
	assert.Contains(t, strings.Join(strings.Fields(ansi.Strip(e.View(140, 30))), " "), "No tokens known yet")

	tok := e.NewToken()
	e.Send(ui.JumpMsg{Query: " " + tok.ID + " "})
	assert.Empty(t, e.Errors())
	require.True(t, tt.Pane.IsOpen(), "the token opens in the pane")
	assert.Equal(t, tok.ID, tt.Pane.Obj.ID)
	require.NotNil(t, tt.Pane.Obj.Read, "as the service has it")
	assert.Equal(t, backend.TokenActive, tt.Pane.Obj.Read.Status)
	assert.False(t, tt.Status().Loading, "the lookup is over")

	pane := e.paneSide(140, 30)
	assert.Contains(t, pane, "Token "+tok.ID, "the pane's title")
	assert.Contains(t, viewtest.LineWith(pane, "Status"), "✓ Active")
	assert.Contains(t, viewtest.LineWith(pane, "Card "), tok.Title)
	assert.Contains(t, viewtest.LineWith(pane, "Brand"), "Visa")
	assert.Contains(t, viewtest.LineWith(pane, "From"), "looked up")
	assert.NotContains(t, pane, "Revoked: the saved card")
	assert.Contains(t, viewtest.LineWith(e.listSide(140, 30), tok.ID), "✓ Active", "the row")

	// Listed and selected.
	row, ok := e.tokenRow(tok.ID)
	require.True(t, ok, "the token is listed")
	assert.Equal(t, tok.Title, row.Title)
	assert.Equal(t, tok.ID, tt.List.Table.SelectedID())
	assert.Equal(t, "Revoke token "+tok.ID, tt.ActionTarget(keys.ActRevoke))

	// Remembered in the store, and in its file for the next run.
	got, ok := store.Get(e.host(), e.Scope.MerchantID, tok.ID)
	require.True(t, ok)
	assert.Equal(t, known.LookedUp, got.Source)
	assert.Equal(t, backend.TokenActive, got.Status)
	assert.Equal(t, tok.Title, got.Title)
	list := store.List(e.host(), e.Scope.MerchantID)
	require.Len(t, list, 1)
	assert.Equal(t, tok.ID, list[0].ID)
	again, err := known.Open(path)
	require.NoError(t, err)
	require.Len(t, again.List(e.host(), e.Scope.MerchantID), 1, "saved to the file")
	assert.Empty(t, again.List(e.host(), "another merchant"), "kept under the scope's merchant")

	// A second tab on the same store lists it from the start.
	e2 := &env{e.Another(t, New(tab.Deps{Backend: e.B, Keys: keys.Default(), Journal: e.J, Theme: ui.NewTheme(true, true), Known: store,
		CheckAfter: viewtest.NoCheckWait}))}
	e2.Size(140, 30)
	e2.Init()
	row, ok = e2.tokenRow(tok.ID)
	require.True(t, ok, "listed by a new tab on the same store")
	assert.Equal(t, "✓ Active", tab.TokenStatusText(row.NewestStatus()))
	assert.Contains(t, viewtest.LineWith(ansi.Strip(e2.View(140, 30)), tok.ID), "looked up")
}

func TestTokenLookupOfAnUnknownIDSaysSo(t *testing.T) {
	t.Parallel()
	store := known.NewMemory()
	e, tt := started(t, viewtest.Opts{Tab: withKnown(store)}, 120, 30)

	e.Send(ui.JumpMsg{Query: "5199999"})
	errs := e.Errors()
	require.Len(t, errs, 1)
	assert.Equal(t, "no token 5199999 at the service", errs[0].Err.Error())
	assert.Contains(t, errs[0].Hint, "token ids are in a payment's pane")
	assert.False(t, tt.Pane.IsOpen(), "nothing opens")
	assert.Zero(t, tt.List.Table.Len(), "nothing is listed")
	assert.Empty(t, store.List(e.host(), e.Scope.MerchantID), "nothing is remembered")
	assert.False(t, tt.Status().Loading)

	// Not an id at all: said at once, nothing asked of the service.
	e.Shell = nil
	e.Send(ui.JumpMsg{Query: "tok\x07en"})
	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, ui.ToastWarning, ts[0].Level)
	assert.True(t, strings.HasPrefix(ts[0].Text, "not a token id: "), ts[0].Text)
	assert.NotContains(t, ts[0].Text, "\x07", "the control character is not shown raw")
	assert.Empty(t, e.Errors())
}

// --- revoke from the Tokens tab ------------------------------------------------------

func TestRevokeTokenHappyPath(t *testing.T) {
	t.Parallel()
	store := known.NewMemory()
	e, tt := started(t, viewtest.Opts{Changes: true, Tab: withKnown(store)}, 140, 30)
	tok := e.NewToken()
	e.Send(ui.JumpMsg{Query: tok.ID})
	require.True(t, tt.Pane.IsOpen())
	ok, why := tt.Available(keys.ActRevoke)
	require.True(t, ok, why)

	e.Act(keys.ActRevoke)
	assert.Empty(t, e.Refused())
	spec, found := e.ConfirmSpec()
	require.True(t, found, "a confirmation is asked for")
	assert.Equal(t, "Revoke token "+tok.ID, spec.Title)
	assert.Equal(t, "Revoke", spec.Verb)
	assert.True(t, spec.Danger)
	assert.Nil(t, spec.Amount)
	assert.Nil(t, spec.Fixed)
	require.NotEmpty(t, spec.Lines)
	assert.True(t, strings.HasPrefix(spec.Lines[0], "Token "+tok.ID+" · "+tok.Title+" · expires "), spec.Lines[0])
	lines := strings.Join(spec.Lines, "\n")
	assert.Contains(t, lines, "Now: ✓ Active → after: Revoked")
	assert.Contains(t, lines, "This cannot be undone.")
	assert.Contains(t, lines, "v2")
	assert.NotContains(t, lines, "Used by payment", "not from a payment's pane")
	assert.Empty(t, e.Journal(), "nothing is sent before y")

	// y: from then on nothing else is sent on it, and the row says so.
	cmd := spec.Confirm(money.Amount{})
	ok, why = tt.Available(keys.ActRevoke)
	assert.False(t, ok)
	assert.Equal(t, "the revoke of token "+tok.ID+" is being sent; wait for its answer", why)
	assert.Equal(t, 1, tt.Status().Sending)
	assert.True(t, tt.Status().Loading)
	assert.Contains(t, viewtest.LineWith(e.listSide(140, 30), tok.ID), "→ revoking", "the row says so")
	assert.Contains(t, e.paneSide(140, 30), "being sent, the answer awaited", "and the pane")
	e.Run(cmd)

	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, ui.ToastSuccess, ts[0].Level, ts[0].Text)
	assert.Equal(t, "Revoked token "+tok.ID+" ("+tok.Title+") — now Revoked", ts[0].Text)
	assert.Empty(t, e.Errors())
	assert.Zero(t, tt.Status().Sending)

	j := e.Journal()
	require.Len(t, j, 2)
	assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, phases(j))
	assert.Equal(t, string(backend.ActionRevokeToken), j[0].Action)
	assert.Equal(t, tok.ID, j[0].ObjectID)
	assert.Equal(t, "v2", j[0].Interface)
	assert.NotEmpty(t, j[0].ActionID)
	assert.Equal(t, j[0].ActionID, j[1].ActionID)

	// The row, the pane, the service and the store say Revoked.
	row, found := e.tokenRow(tok.ID)
	require.True(t, found)
	assert.Equal(t, "✗ Revoked", tab.TokenStatusText(row.NewestStatus()))
	list, pane := halves(e.View(140, 30), 140)
	assert.Contains(t, viewtest.LineWith(list, tok.ID), "✗ Revoked", "the row")
	assert.NotContains(t, list, "→ revoking")
	assert.Contains(t, viewtest.LineWith(pane, "Status"), "✗ Revoked", "the pane")
	assert.Contains(t, pane, "Revoked: the saved card can no longer be charged.")
	assert.NotContains(t, pane, "being sent")
	assert.Equal(t, backend.TokenRevoked, e.serviceToken(tok.ID).Status)
	got, _ := store.Get(e.host(), e.Scope.MerchantID, tok.ID)
	assert.Equal(t, backend.TokenRevoked, got.Status)

	// And it cannot be revoked again.
	ok, why = tt.Available(keys.ActRevoke)
	assert.False(t, ok)
	assert.Equal(t, "token "+tok.ID+" is already revoked", why)
}

func TestRevokeRefusedForARevokedToken(t *testing.T) {
	t.Parallel()
	e, tt := started(t, viewtest.Opts{Changes: true}, 140, 30)
	tok := e.NewToken()
	_, err := e.Sandbox().Store().RevokePaymentToken(tok.ID)
	require.NoError(t, err)

	e.Send(ui.JumpMsg{Query: tok.ID})
	require.True(t, tt.Pane.IsOpen())
	pane := e.paneSide(140, 30)
	assert.Contains(t, viewtest.LineWith(pane, "Status"), "✗ Revoked")
	assert.Contains(t, pane, "Revoked: the saved card can no longer be charged.")
	assert.Contains(t, viewtest.LineWith(e.listSide(140, 30), tok.ID), "✗ Revoked")
	ok, why := tt.Available(keys.ActRevoke)
	assert.False(t, ok)
	assert.Equal(t, "token "+tok.ID+" is already revoked", why)
	ticket := e.Act(keys.ActRevoke)
	r := e.Refused()
	require.Len(t, r, 1)
	assert.Equal(t, ticket, r[0].Ticket)
	assert.Equal(t, "token "+tok.ID+" is already revoked", r[0].Text)
	_, found := e.ConfirmSpec()
	assert.False(t, found)
	assert.Empty(t, e.Journal())
}

// A token revoked elsewhere after the tab last read it: the read before
// the confirmation finds it out, refuses, and shows it.
func TestRevokeRefusedWhenRevokedMeanwhile(t *testing.T) {
	t.Parallel()
	store := known.NewMemory()
	e, tt := started(t, viewtest.Opts{Changes: true, Tab: withKnown(store)}, 140, 30)
	tok := e.NewToken()
	e.Send(ui.JumpMsg{Query: tok.ID})
	e.Press("esc") // back to the list: the row is the target
	require.False(t, tt.Pane.IsOpen())
	require.Equal(t, tok.ID, tt.List.Table.SelectedID())
	ok, why := tt.Available(keys.ActRevoke)
	require.True(t, ok, why)

	_, err := e.Sandbox().Store().RevokePaymentToken(tok.ID) // by a colleague, in the portal
	require.NoError(t, err)
	ticket := e.Act(keys.ActRevoke)
	_, found := e.ConfirmSpec()
	assert.False(t, found, "no dialog for a token already revoked")
	r := e.Refused()
	require.Len(t, r, 1)
	assert.Equal(t, ticket, r[0].Ticket)
	assert.Equal(t, ui.ToastWarning, r[0].Level)
	assert.Equal(t, "token "+tok.ID+" is already revoked", r[0].Text)
	assert.Empty(t, e.Journal(), "nothing sent")
	row, _ := e.tokenRow(tok.ID)
	assert.Equal(t, "✗ Revoked", tab.TokenStatusText(row.NewestStatus()), "the row shows what the read found")
	got, _ := store.Get(e.host(), e.Scope.MerchantID, tok.ID)
	assert.Equal(t, backend.TokenRevoked, got.Status, "and the store remembers it")
}

func TestRevokeRefusedWithAReadOnlyToken(t *testing.T) {
	t.Parallel()
	e, tt := started(t, viewtest.Opts{Changes: true, Tab: New, ReadOnly: true}, 140, 30)
	tok := e.NewToken()
	e.Send(ui.JumpMsg{Query: tok.ID})
	require.True(t, tt.Pane.IsOpen(), "reading is allowed")
	assert.Contains(t, viewtest.LineWith(e.paneSide(140, 30), "Status"), "✓ Active")

	can, credsWhy := e.B.Can(backend.ActionRevokeToken)
	require.False(t, can)
	require.NotEmpty(t, credsWhy)
	ok, why := tt.Available(keys.ActRevoke)
	assert.False(t, ok, "greyed")
	assert.Equal(t, credsWhy, why, "with the credentials' reason")
	ticket := e.Act(keys.ActRevoke)
	r := e.Refused()
	require.Len(t, r, 1)
	assert.Equal(t, ticket, r[0].Ticket)
	assert.Equal(t, credsWhy, r[0].Text)
	_, found := e.ConfirmSpec()
	assert.False(t, found)
	assert.Empty(t, e.Journal())
	assert.Equal(t, backend.TokenActive, e.serviceToken(tok.ID).Status)

	// The key itself, pressed anyway, says why.
	e.Press("v")
	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, credsWhy, ts[0].Text)
}

func TestRevokeRefusedWithoutASelection(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Tab: New}, 120, 30)
	ok, why := e.Tab.Available(keys.ActRevoke)
	assert.False(t, ok)
	assert.Equal(t, "no token is selected", why)
	assert.Empty(t, e.Tab.(*Tokens).ActionTarget(keys.ActRevoke))
	ticket := e.Act(keys.ActRevoke)
	r := e.Refused()
	require.Len(t, r, 1)
	assert.Equal(t, ticket, r[0].Ticket)
	assert.Equal(t, "no token is selected", r[0].Text)
	for _, a := range []keys.Action{keys.ActOpen, keys.ActRaw, keys.ActCopyID} {
		ok, why := e.Tab.Available(a)
		assert.False(t, ok, a)
		assert.Equal(t, "no token is selected", why, a)
	}
	assert.Empty(t, e.Journal())
}

func TestTokensWithoutV2SaysWhy(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Tab: New, V1Only: true}, 80, 24)
	v := strings.Join(strings.Fields(ansi.Strip(e.View(80, 24))), " ")
	assert.Contains(t, v, "saved card tokens exist only in its current (v2) interface")
	for _, a := range []keys.Action{keys.ActRevoke, keys.ActNew, keys.ActOpen} {
		ok, why := e.Tab.Available(a)
		assert.False(t, ok, a)
		assert.Contains(t, why, "(v2) interface", a)
	}
	e.Act(keys.ActRevoke)
	r := e.Refused()
	require.Len(t, r, 1)
	assert.Contains(t, r[0].Text, "(v2) interface")

	e.Send(ui.JumpMsg{Query: "5100001"})
	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Contains(t, ts[0].Text, "(v2) interface")
	assert.False(t, e.Tab.(*Tokens).Pane.IsOpen())
	assert.Empty(t, e.Journal())
}

// --- revoke from a payment's pane ---------------------------------------------------

func TestRevokeFromAPaymentsPaneIsSeenByTheTokensTab(t *testing.T) {
	t.Parallel()
	hold := newHoldRevoke(t)
	tt := newTwoTabs(t, viewtest.Opts{Changes: true, Wrap: func(b backend.Backend) backend.Backend { hold.Backend = b; return hold }})
	pay, tok := tt.pay, tt.tok
	pay.Size(140, 40)
	pay.Init()
	tok.Size(140, 40)
	tok.Init()

	token := pay.NewToken()
	paid := pay.PayWithToken(token.ID, "321.00")
	pay.Send(ui.RefreshMsg{})
	pay.Press("g")
	require.Equal(t, paid.ID, pay.Tab.(*payments.Payments).List.Table.SelectedID(), "the new payment is at the top")

	// Before the pane is open, v says what to do.
	ok, why := pay.Tab.Available(keys.ActRevoke)
	assert.False(t, ok)
	assert.Equal(t, "open a payment (enter) to revoke the saved card it used", why)

	pay.Press("enter")
	p := pay.Tab.(*payments.Payments)
	require.True(t, p.Pane.IsOpen())
	require.NotNil(t, p.Pane.Obj.Token, "the payment read in full names its token")
	require.Equal(t, token.ID, p.Pane.Obj.Token.ID)
	tokSec := tokenSection(p)
	assert.Contains(t, tokSec, token.ID, "the pane's Token section")
	assert.Contains(t, tokSec, token.Title)
	assert.Regexp(t, `Status\s+✓ Active`, tokSec, "its state, read with the pane")

	// Reading it made the token known to the Tokens tab.
	seen, known1 := tt.store.Get(pay.host(), pay.Scope.MerchantID, token.ID)
	require.True(t, known1, "the payment's token is remembered")
	assert.Equal(t, []string{paid.ID}, seen.Payments)
	tok.Deliver(tab.KnownSavedMsg{})
	_, listed := tok.tokenRow(token.ID)
	require.True(t, listed, "the Tokens tab lists it once told the store changed")
	tok.View(140, 40) // drawn once: its rows are cached

	ok, why = pay.Tab.Available(keys.ActRevoke)
	require.True(t, ok, why)
	assert.Equal(t, "Revoke token "+token.ID+" of payment "+paid.ID, p.ActionTarget(keys.ActRevoke))
	pay.Act(keys.ActRevoke)
	spec, found := pay.ConfirmSpec()
	require.True(t, found, "a confirmation: %v", pay.Shell)
	assert.Equal(t, "Revoke token "+token.ID, spec.Title)
	lines := strings.Join(spec.Lines, "\n")
	assert.Contains(t, spec.Lines[0], token.Title)
	assert.Contains(t, lines, "Used by payment "+paid.ID)
	assert.Contains(t, lines, "Payments known to use it: 1 ("+paid.ID+")")
	assert.Contains(t, lines, "Now: ✓ Active → after: Revoked")

	// y: the revoke is sent, and held on its way.
	send := spec.Confirm(money.Amount{})
	require.NotNil(t, send)
	wait := runAsync(send)
	select {
	case id := <-hold.arrived:
		require.Equal(t, token.ID, id)
	case <-time.After(viewtest.LongWait):
		t.Fatal("the revoke never reached the backend")
	}
	j := pay.Journal()
	require.Len(t, j, 1)
	assert.Equal(t, journal.PhaseSent, j[0].Phase)

	// Meanwhile the Tokens tab sends nothing on that token.
	tok.Press("g")
	require.Equal(t, token.ID, tok.Tab.(*Tokens).List.Table.SelectedID())
	busy := "the revoke of token " + token.ID + " is being sent; wait for its answer"
	ok, why = tok.Tab.Available(keys.ActRevoke)
	assert.False(t, ok)
	assert.Equal(t, busy, why)
	ticket := tok.Act(keys.ActRevoke)
	r := tok.Refused()
	require.Len(t, r, 1)
	assert.Equal(t, ticket, r[0].Ticket)
	assert.Equal(t, busy, r[0].Text)
	_, found = tok.ConfirmSpec()
	assert.False(t, found)
	assert.Contains(t, viewtest.LineWith(tok.listSide(140, 40), token.ID), "→ revoking", "its row says so")
	// Nor does the Payments tab itself.
	ok, why = pay.Tab.Available(keys.ActRevoke)
	assert.False(t, ok)
	assert.Equal(t, busy, why)
	assert.Contains(t, tokenSection(p), "being sent, the answer awaited", "the payment's pane says so")

	// The answer.
	hold.release()
	pay.Deliver(wait())
	ts := pay.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, ui.ToastSuccess, ts[0].Level)
	assert.Equal(t, "Revoked token "+token.ID+" ("+token.Title+") — now Revoked", ts[0].Text)
	assert.Empty(t, pay.Errors())
	j = pay.Journal()
	assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, phases(j))
	assert.Equal(t, token.ID, j[0].ObjectID)
	assert.Equal(t, backend.TokenRevoked, pay.serviceToken(token.ID).Status)

	// The payment's pane shows the token revoked.
	tokSec = tokenSection(p)
	assert.NotContains(t, tokSec, "being sent")
	assert.Contains(t, viewtest.LineWith(tokSec, "Status"), "✗ Revoked", "the Token section's status:\n%s", tokSec)
	pay.View(140, 40)
	ok, why = pay.Tab.Available(keys.ActRevoke)
	assert.False(t, ok)
	assert.Equal(t, "token "+token.ID+" is already revoked", why)

	// The store, and the Tokens tab once the save is delivered to it.
	got, _ := tt.store.Get(pay.host(), pay.Scope.MerchantID, token.ID)
	assert.Equal(t, backend.TokenRevoked, got.Status)
	tok.Deliver(tab.KnownSavedMsg{})
	row, _ := tok.tokenRow(token.ID)
	assert.Equal(t, "✗ Revoked", tab.TokenStatusText(row.NewestStatus()))
	assert.Contains(t, viewtest.LineWith(tok.listSide(140, 40), token.ID), "✗ Revoked")
	ok, why = tok.Tab.Available(keys.ActRevoke)
	assert.False(t, ok)
	assert.Equal(t, "token "+token.ID+" is already revoked", why)
	assert.Empty(t, tt.flights.ByObject, "nothing is left under way")
}

// While the Payments tab sends a revoke, the Tokens tab's row says so
// too, though the Tokens tab drew it before (the tabs share InFlight).
func TestRevokeFromAPaymentsPaneShowsInTheTokensRow(t *testing.T) {
	t.Parallel()
	tt := newTwoTabs(t, viewtest.Opts{Changes: true})
	pay, tok := tt.pay, tt.tok
	pay.Size(140, 40)
	pay.Init()
	tok.Size(140, 40)
	tok.Init()
	token := pay.NewToken()
	paid := pay.PayWithToken(token.ID, "77.00")
	pay.Send(ui.RefreshMsg{})
	pay.Press("g", "enter")
	require.Equal(t, paid.ID, pay.Tab.(*payments.Payments).Pane.Obj.ID)
	tok.Deliver(tab.KnownSavedMsg{})
	require.Contains(t, viewtest.LineWith(tok.listSide(140, 40), token.ID), "✓ Active", "seen in a payment: its state was read with the pane")

	pay.Act(keys.ActRevoke)
	spec, found := pay.ConfirmSpec()
	require.True(t, found)
	tok.Deliver(tab.KnownSavedMsg{}) // the read before the dialog noted the token
	tok.View(140, 40)
	send := spec.Confirm(money.Amount{})
	assert.Contains(t, viewtest.LineWith(tok.listSide(140, 40), token.ID), "→ revoking")
	pay.Run(send)
	require.Len(t, pay.Toasts(), 1)
	row := viewtest.LineWith(tok.listSide(140, 40), token.ID)
	assert.NotContains(t, row, "→ revoking", "the mark goes when the revoke is over")
	assert.Contains(t, row, "✓ Active", "the status as the tab last knew it, until it hears of the change")
	tok.Deliver(tab.KnownSavedMsg{})
	assert.Contains(t, viewtest.LineWith(tok.listSide(140, 40), token.ID), "✗ Revoked")
}

// A payment without a token, and a pane closed between v and the dialog.
func TestRevokeFromAPaymentsPaneRefusals(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true}, 140, 40)
	plain := e.HeldOrPaid(false, "15.00")
	e.Press("enter")
	require.True(t, e.Tab.(*payments.Payments).Pane.IsOpen())
	ok, why := e.Tab.Available(keys.ActRevoke)
	assert.False(t, ok)
	assert.Equal(t, "payment "+plain.ID+" used no saved card token", why)
	ticket := e.Act(keys.ActRevoke)
	r := e.Refused()
	require.Len(t, r, 1)
	assert.Equal(t, ticket, r[0].Ticket)
	assert.Equal(t, "payment "+plain.ID+" used no saved card token", r[0].Text)

	// v on a token payment; the pane moves to another payment before the
	// token is read: nothing is asked, nothing sent.
	e.Press("esc")
	token := e.NewToken()
	paid := e.PayWithToken(token.ID, "16.00")
	e.Send(ui.RefreshMsg{})
	e.Press("g", "enter")
	require.Equal(t, paid.ID, e.Tab.(*payments.Payments).Pane.Obj.ID)
	e.Ticket++
	read := e.SendHold(ui.ActionMsg{Action: keys.ActRevoke, Ticket: e.Ticket})
	e.Press("esc", "j", "enter")
	require.NotEqual(t, paid.ID, e.Tab.(*payments.Payments).Pane.Obj.ID)
	e.Run(read)
	_, found := e.ConfirmSpec()
	assert.False(t, found)
	r = e.Refused()
	require.Len(t, r, 1)
	assert.Equal(t, e.Ticket, r[0].Ticket)
	assert.Equal(t, "the payment's pane was closed; nothing was sent", r[0].Text)
	assert.Empty(t, e.Journal())
	assert.Equal(t, backend.TokenActive, e.serviceToken(token.ID).Status)
}

// --- the dialog is bound to the token of the key --------------------------------------

func TestRevokeSendsTheTokenOfTheDialog(t *testing.T) {
	t.Parallel()
	store := known.NewMemory()
	e, tt := started(t, viewtest.Opts{Changes: true, Tab: withKnown(store)}, 140, 30)
	first, second := e.NewToken(), e.NewToken()
	e.Send(ui.JumpMsg{Query: second.ID})
	e.Send(ui.JumpMsg{Query: first.ID})
	require.Equal(t, first.ID, tt.Pane.Obj.ID)
	require.Equal(t, 2, tt.List.Table.Len())

	// v on the first; before its read comes back the user moves to the
	// second (the pane closed, the list moved, the second opened).
	e.Ticket++
	read := e.SendHold(ui.ActionMsg{Action: keys.ActRevoke, Ticket: e.Ticket})
	e.Press("esc")
	e.Send(ui.JumpMsg{Query: second.ID})
	require.Equal(t, second.ID, tt.Pane.Obj.ID)
	require.Equal(t, second.ID, tt.List.Table.SelectedID())
	e.Run(read)

	spec, found := e.ConfirmSpec()
	require.True(t, found)
	assert.Equal(t, "Revoke token "+first.ID, spec.Title, "the dialog names the token of the key")
	assert.True(t, strings.HasPrefix(spec.Lines[0], "Token "+first.ID+" "), spec.Lines[0])

	// More moves between the dialog and y.
	e.Press("esc", "j", "k")
	e.Run(spec.Confirm(money.Amount{}))
	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Contains(t, ts[0].Text, "Revoked token "+first.ID+" ")

	j := e.Journal()
	require.Len(t, j, 2)
	assert.Equal(t, first.ID, j[0].ObjectID, "the token the dialog named was sent")
	assert.Equal(t, first.ID, j[1].ObjectID)
	assert.Equal(t, backend.TokenRevoked, e.serviceToken(first.ID).Status)
	assert.Equal(t, backend.TokenActive, e.serviceToken(second.ID).Status, "the other is untouched")
	r1, _ := e.tokenRow(first.ID)
	r2, _ := e.tokenRow(second.ID)
	assert.Equal(t, backend.TokenRevoked, r1.NewestStatus())
	assert.Equal(t, backend.TokenActive, r2.NewestStatus())
	g1, _ := store.Get(e.host(), e.Scope.MerchantID, first.ID)
	g2, _ := store.Get(e.host(), e.Scope.MerchantID, second.ID)
	assert.Equal(t, backend.TokenRevoked, g1.Status)
	assert.Equal(t, backend.TokenActive, g2.Status)
}

// started is a fresh env with o's tab (this package's when o names none),
// sized w × h and started, and that tab.
func started(t *testing.T, o viewtest.Opts, w, h int) (*env, *Tokens) {
	if o.Tab == nil {
		o.Tab = New
	}
	e := startedEnv(t, o, w, h)
	return e, e.Tab.(*Tokens)
}
