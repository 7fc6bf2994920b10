// Package tokens is the Tokens tab: the saved card tokens paydash knows
// (the service cannot list them), looked up by id, revoked, and new
// card-saving links.
package tokens

import (
	"cmp"
	"context"
	"errors"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/known"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/tab"
)

// Tokens is the Tokens tab. The service reads a saved card token by its id
// but cannot list them, so the tab lists the tokens paydash knows
// (backend/known): those used by payments it read, those it created, and
// those looked up by id with ":". The pane reads the token from the service
// and shows its card and the payments known to use it; v revokes it and n
// makes a card-saving link, each behind a confirmation.
type Tokens struct {
	tab.ListTab[tab.TokenView] // the list, the pane, the actions and the keys
	src                        tokenSource
	memo                       tab.TokenMemo

	// noV2 is why the tab has nothing to show ("" when v2 is configured):
	// tokens exist only in the current interface.
	noV2 string

	lookups   tab.Reader // the lookup (":") under way; older answers are dropped
	looking   bool
	saveWarns int // save failures told (only the first is)
}

// tokenSource is what the Tokens tab asks of the backend.
type tokenSource interface {
	Can(a backend.ActionName) (bool, string)
	GetToken(ctx context.Context, id string) (backend.Token, error)
}

// tokenLookupMsg is the answer of a lookup by id (":").
type tokenLookupMsg struct {
	stamp tab.Stamp // the lookup's
	id    string
	tok   backend.Token
	err   error
}

// New makes the Tokens tab.
func New(d tab.Deps) ui.Tab {
	t := &Tokens{src: d.Backend, memo: tab.NewTokenMemo(d), noV2: tab.NeedsV2(d.Backend, "saved card tokens")}
	cfg := datatable.Config[tab.TokenView]{
		ID:          func(v tab.TokenView) string { return v.ID },
		Columns:     TokenColumns(func(v tab.TokenView) string { return t.Acts.RowMark(tab.TokenRef(v.ID)) }),
		LoadingText: "Reading the known tokens…",
		EndText:     "— the tokens paydash knows; : looks one up by id —",
		EmptyText:   "No tokens known yet: press : to look one up by id, or open a card payment",
	}
	list := tab.NewPagedList(cfg, d.Keys, d.Theme, nil)
	list.Search = tokenSearch()
	pane := tab.NewDetail(t.readToken, t.detailLines, func(v tab.TokenView) []string {
		if v.Read == nil {
			return tab.RawOrNote(nil, t.Theme)
		}
		return tab.RawOrNote(v.Read.Raw, t.Theme)
	})
	t.ListTab = tab.NewListTab(d, list, pane)
	t.PaneTitle = func(o tab.TokenView) string { return "Token " + textsafe.Clean(o.ID) }
	t.Acts = tab.NewTracker(d, func(ref tab.ObjectRef) {
		if ref.Kind == "token" {
			t.List.Table.Redraw(ref.ID)
		}
	})
	t.Keys = t.keyTable()
	t.Hooks = tab.ListHooks[tab.TokenView]{Pane: t.paneRead, ReadAgain: t.onReadAgain,
		Outcome: func(over tab.OutcomeMsg) tea.Cmd { return tea.Batch(t.showOutcome(over), tab.Changed(t.Owner, over)) }}
	t.Wire(tab.KeyRoute[tab.TokenView]{})
	t.Acts.Adopt(d.Pending, backend.ActionRevokeToken, backend.ActionCreateTokenization)
	return t
}

// keyTable is every key of the Tokens tab.
func (ts *Tokens) keyTable() tab.KeyTable {
	refresh := func() tea.Cmd {
		if ts.noV2 != "" {
			return nil
		}
		return tea.Batch(ts.List.Refresh(), ts.Pane.Reload())
	}
	kt := append(ts.ListKeys("token", refresh, ts.copyMore, ts.export),
		tab.KeyAction{Key: keys.ActRevoke, When: ts.mayRevoke, Start: ts.startRevoke, Target: ts.revokeTarget},
		tab.KeyAction{Key: keys.ActNew, Start: ts.StartCreate(tab.CreateTokenization), Target: func() string { return "New card-saving link" },
			When: func() (bool, string) { return tab.MayAct(ts.src, ts.Deps.Journal, backend.ActionCreateTokenization) }})
	// Without v2 the tab has no tokens to act on.
	return kt.Gate(func() string { return ts.noV2 }, tab.Unguarded...)
}

// Status implements ui.Tab: the list's, and a lookup under way.
func (ts *Tokens) Status() ui.TabStatus {
	st := ts.ListTab.Status()
	st.Loading = st.Loading || ts.looking
	return st
}

// Update implements ui.Tab: the shared part takes what every list tab
// handles alike; the rest is the tab's.
func (ts *Tokens) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	if cmd, ok := ts.ListTab.Update(msg); ok {
		return ts, cmd
	}
	switch msg := msg.(type) {
	case ui.ScopeMsg:
		return ts, ts.start(msg.Scope)
	case ui.RefreshMsg:
		if ts.noV2 != "" {
			return ts, nil
		}
		return ts, tea.Batch(ts.List.Refresh(), ts.Pane.Reload())
	case tab.KnownSavedMsg:
		return ts, ts.onSaved(msg)
	case tab.ChangedMsg:
		// A token revoked from a payment's pane: its row and pane show it.
		if id := msg.RevokedToken(); msg.From != ts.Owner && id != "" {
			return ts, ts.showToken(id)
		}
	case ui.JumpMsg:
		return ts, ts.lookup(msg.Query)
	case tokenLookupMsg:
		cmd := ts.onLookup(msg)
		ts.Layout()
		return ts, cmd
	}
	return ts, nil
}

// paneRead notes the token the pane read in full.
func (ts *Tokens) paneRead(read bool) tea.Cmd {
	if read {
		return ts.noteRead(ts.Pane.Obj)
	}
	return nil
}

// mayRevoke says whether the token a key acts on can be revoked now.
func (ts *Tokens) mayRevoke() (bool, string) {
	v, ok := ts.Target()
	if !ok {
		return false, "no token is selected"
	}
	return tab.MayRevoke(ts.src, ts.Deps, ts.Acts, v.ID, v.NewestStatus())
}

// revokeTarget names the revocation for the preparing dialog.
func (ts *Tokens) revokeTarget() string {
	if v, ok := ts.Target(); ok {
		return "Revoke token " + textsafe.Clean(v.ID)
	}
	return ""
}

// startRevoke reads the token again before the confirmation of its
// revocation, so that the dialog shows it as it is now.
func (ts *Tokens) startRevoke(ticket int) tea.Cmd {
	v, _ := ts.Target()
	src, id := ts.src, v.ID
	return tab.ReadAgain(&ts.Prep, ticket, keys.ActRevoke, func(ctx context.Context) (backend.Token, error) {
		return src.GetToken(ctx, id)
	})
}

// TokenColumns are the list's columns; rowMark overrides the status while
// an action is under way on a token.
func TokenColumns(rowMark func(tab.TokenView) string) []datatable.Column[tab.TokenView] {
	status := func(v tab.TokenView) string {
		if m := rowMark(v); m != "" {
			return m
		}
		return tab.TokenStatusText(v.NewestStatus())
	}
	return []datatable.Column[tab.TokenView]{
		{Key: "id", Title: "ID", Width: 10, MaxWidth: 40, Priority: 100,
			Text: func(v tab.TokenView) string { return v.ID },
			Less: func(a, b tab.TokenView) int { return tab.CmpIDs(a.ID, b.ID) }},
		{Key: "status", Title: "Status", Width: 12, Priority: 90,
			Text: status,
			Tone: func(v tab.TokenView) datatable.Tone { return tab.MarkedTone(rowMark(v), tokenTone(v.NewestStatus())) },
			Less: func(a, b tab.TokenView) int { return cmp.Compare(a.NewestStatus(), b.NewestStatus()) }},
		{Key: "title", Title: "Card", Width: 20, Flex: 1, Priority: 80,
			Text: func(v tab.TokenView) string { return v.Title },
			Less: func(a, b tab.TokenView) int { return cmp.Compare(a.Title, b.Title) }},
		{Key: "expires", Title: "Expires", Width: 8, Priority: 60,
			Text: func(v tab.TokenView) string { return tab.FmtExpiry(v.Expires) },
			Less: func(a, b tab.TokenView) int { return a.Expires.Compare(b.Expires) }},
		{Key: "payments", Title: "Payments", Width: 8, Priority: 50, Align: lipgloss.Right,
			Text: func(v tab.TokenView) string { return strconv.Itoa(len(v.Payments)) },
			Less: func(a, b tab.TokenView) int { return cmp.Compare(len(a.Payments), len(b.Payments)) }},
		{Key: "source", Title: "Known from", Width: 10, Priority: 40,
			Text: func(v tab.TokenView) string { return sourceText(v.Source) },
			Less: func(a, b tab.TokenView) int { return cmp.Compare(a.Source, b.Source) }},
		{Key: "seen", Title: "Last seen", Width: 12, Priority: 30,
			Text: func(v tab.TokenView) string { return tab.FmtListTime(v.LastSeen) },
			Less: func(a, b tab.TokenView) int { return a.LastSeen.Compare(b.LastSeen) }},
	}
}

func sourceText(s known.Source) string {
	switch s {
	case known.Created:
		return "created"
	case known.LookedUp:
		return "looked up"
	case known.SeenInPayment:
		return "a payment"
	}
	return textsafe.Clean(string(s))
}

// ID implements ui.Tab.
func (ts *Tokens) ID() ui.TabID { return ui.TabTokens }

// Title implements ui.Tab.
func (ts *Tokens) Title() string { return "Tokens" }

// Init implements ui.Tab: the known tokens, and the finding out of what an
// earlier run left without an outcome.
func (ts *Tokens) Init(s ui.Scope) tea.Cmd { return tea.Batch(ts.start(s), ts.Acts.Resume()) }

// start lists the tokens known for the scope's merchant (the period does
// not apply: a token lasts).
func (ts *Tokens) start(s ui.Scope) tea.Cmd {
	if !ts.NewMerchant(s, ts.noV2) {
		return nil
	}
	ts.looking = false
	ts.lookups.Stop()
	memo, merchant := ts.memo, s.MerchantID
	return ts.List.Start(func() backend.Pager[tab.TokenView] {
		return tab.OneCall(func(context.Context) ([]tab.TokenView, error) { return memo.List(merchant), nil })
	}, nil)
}

// JumpPrompt implements ui.Jumper: ":" looks a token up by id here.
func (ts *Tokens) JumpPrompt() ui.JumpWords {
	return ui.JumpWords{Title: "Look up a token", Hint: "its id (the service reads tokens by id only)",
		Placeholder: "token id", Empty: "type a token id"}
}

// readToken reads the pane's token from the service.
func (ts *Tokens) readToken(ctx context.Context, v tab.TokenView) (tab.TokenView, error) {
	tok, err := ts.src.GetToken(ctx, v.ID)
	if err != nil {
		return v, err
	}
	v.Read = &tok
	return v, nil
}

// noteRead remembers what a read of the pane's token said (its status,
// title, expiry), and shows it in its row.
func (ts *Tokens) noteRead(v tab.TokenView) tea.Cmd {
	if v.Read == nil {
		return nil
	}
	ts.List.Upsert(v, ts.Deps.TimeNow())
	return ts.memo.Note(ts.Scope.MerchantID, known.FromToken(*v.Read, known.LookedUp))
}

// onSaved refreshes the list after the store changed (from any tab), and
// tells the first failure to save it.
func (ts *Tokens) onSaved(msg tab.KnownSavedMsg) tea.Cmd {
	var cmds []tea.Cmd
	if msg.Err != nil && ts.saveWarns == 0 {
		ts.saveWarns++
		cmds = append(cmds, tab.ToastCmd(ui.ToastWarning,
			"The known tokens could not be saved (they are kept for this run): "+tab.ErrText(msg.Err)))
	}
	if ts.noV2 == "" && ts.List.Load != nil {
		cmds = append(cmds, ts.List.Refresh())
	}
	return tea.Batch(cmds...)
}

// --- lookup by id (":") ---------------------------------------------------------

// lookup reads a token by id: a known one opens at once (and is read in the
// pane); another is asked of the service and, when it exists, remembered.
func (ts *Tokens) lookup(query string) tea.Cmd {
	id := strings.TrimSpace(query)
	if ts.noV2 != "" {
		return tab.ToastCmd(ui.ToastWarning, ts.noV2)
	}
	if id == "" {
		return nil
	}
	if !known.ValidID(id) {
		return tab.ToastCmd(ui.ToastWarning, "not a token id: "+textsafe.Line(id, 60))
	}
	if sel, ok := ts.List.SelectID(id); ok {
		cmd := ts.Pane.Show(sel, false, false)
		ts.Layout()
		return cmd
	}
	ts.looking = true
	ctx, st := ts.lookups.Start(ts.List.Context())
	src := ts.src
	return func() tea.Msg {
		tok, err := src.GetToken(ctx, id)
		return tokenLookupMsg{stamp: st, id: id, tok: tok, err: err}
	}
}

func (ts *Tokens) onLookup(msg tokenLookupMsg) tea.Cmd {
	if !ts.lookups.Fresh(msg.stamp) {
		return nil
	}
	ts.looking = false
	id := textsafe.Line(msg.id, 60)
	switch {
	case msg.err != nil && tab.Cancelled(msg.err):
		return nil
	case msg.err != nil && backend.KindOf(msg.err) == backend.KindNotFound:
		return tab.MsgCmd(ui.ErrorMsg{Err: errors.New("no token " + id + " at the service"),
			Hint: "token ids are in a payment's pane (Token) or in the card-saving link's answer"})
	case msg.err != nil:
		return tab.ErrorCmd(msg.err)
	}
	tok := msg.tok
	if tok.ID == "" {
		tok.ID = msg.id
	}
	save := ts.memo.Note(ts.Scope.MerchantID, known.FromToken(tok, known.LookedUp))
	v, _ := ts.memo.Get(ts.Scope.MerchantID, tok.ID)
	v.Read = &tok
	ts.List.Upsert(v, ts.Deps.TimeNow())
	ts.List.SelectID(v.ID)
	return tea.Batch(save, ts.Pane.Show(v, false, true))
}

// --- actions --------------------------------------------------------------------

// onReadAgain opens the confirmation of a revocation on the token as it
// is now, or says why it cannot.
func (ts *Tokens) onReadAgain(msg tab.ReadAgainMsg) tea.Cmd {
	tok, _ := msg.Obj.(backend.Token)
	if msg.Err != nil {
		return tab.CouldNotRead(msg.Ticket, "the token before revoking it", msg.Err)
	}
	save := ts.memo.Note(ts.Scope.MerchantID, known.FromToken(tok, known.LookedUp))
	v, _ := ts.memo.Get(ts.Scope.MerchantID, tok.ID)
	v.Read = &tok
	ts.List.Upsert(v, ts.Deps.TimeNow())
	if ts.Pane.IsOpen() && ts.Pane.Obj.ID == tok.ID {
		ts.Pane.Set(v)
	}
	if ok, why := tab.MayRevoke(ts.src, ts.Deps, ts.Acts, tok.ID, tok.Status); !ok {
		return tea.Batch(save, tab.RefusedCmd(msg.Ticket, ui.ToastWarning, why))
	}
	return tea.Batch(save, tab.MsgCmd(ui.ConfirmDialog(msg.Ticket, tab.RevokeSpec(tok, v.Payments, "", ts.Acts))))
}

// showToken puts the token as now known into the list and the pane, and
// reads the pane's again.
func (ts *Tokens) showToken(id string) tea.Cmd {
	v, ok := ts.memo.Get(ts.Scope.MerchantID, id)
	if !ok {
		return nil
	}
	ts.List.Upsert(v, ts.Deps.TimeNow())
	if ts.Pane.IsOpen() && ts.Pane.Obj.ID == id {
		ts.Pane.Set(v)
		return ts.Pane.Reload()
	}
	return nil
}

// showOutcome puts what an action over brought into the store, the list
// and the pane; a card-saving link opens in the result dialog.
func (ts *Tokens) showOutcome(msg tab.OutcomeMsg) tea.Cmd {
	var cmds []tea.Cmd
	if msg.Out.State == action.Done {
		cmds = append(cmds, ts.memo.NoteOutcome(ts.Scope.MerchantID, msg.Req, msg.Out))
		if v, ok := ts.memo.Get(ts.Scope.MerchantID, tokenOf(msg.Req, msg.Out)); ok {
			if msg.Out.Token.ID != "" {
				tok := msg.Out.Token
				v.Read = &tok
			}
			ts.List.Upsert(v, ts.Deps.TimeNow())
			ts.List.Own(v.ID)
			if ts.Pane.IsOpen() && ts.Pane.Obj.ID == v.ID {
				ts.Pane.Set(v)
			}
		}
		cmds = append(cmds, tab.CreatedDialog(msg.Req, msg.Out, ts.Deps.Keys, ts.Theme))
	}
	if ts.Pane.IsOpen() && ts.Pane.Obj.ID == msg.Req.ObjectID {
		cmds = append(cmds, ts.Pane.Reload())
	}
	return tea.Batch(cmds...)
}

// --- view -----------------------------------------------------------------------

// detailLines is the token, one fact a line: its status, card and expiry
// as the service last said, and the payments known to use it.
func (ts *Tokens) detailLines() []string {
	th := ts.Theme
	d := ts.Pane
	v := d.Obj
	c := textsafe.Clean
	f := &tab.Fields{Theme: th, LabelW: 14, Width: d.Inner()}
	if d.Loading && v.Read == nil {
		f.Line(th.Muted.Render("reading the token…"))
	}
	if d.Err != nil {
		f.Failure("", d.Err)
	}
	for _, l := range ts.Acts.PaneLines(th, tab.TokenRef(v.ID)) {
		f.Line(l)
	}
	st := v.NewestStatus()
	f.AddAlways("Status", tab.TokenStatusStyle(th, st)(tab.TokenStatusText(st)))
	if st == backend.TokenRevoked {
		f.Line(th.Danger.Render("Revoked: the saved card can no longer be charged."))
	}
	f.Add("Card", c(v.Title))
	f.Add("Expires", tab.FmtExpiry(v.Expires))
	if r := v.Read; r != nil {
		f.Add("Result", c(r.ResultCode))
		if cd := r.Card; cd != nil {
			f.Add("Brand", c(cd.Brand))
			f.Add("Issuer", c(cd.Issuer))
			f.Add("Country", c(cd.Country))
			f.Add("Card type", c(cd.Type))
			f.Add("Category", c(cd.Category))
		}
		if cf := r.Confirmation; cf != nil {
			f.Add("To confirm", c(cf.PaymentURL))
		}
	}
	f.Heading("Known to paydash")
	f.Add("From", sourceText(v.Source))
	f.Add("First seen", tab.FmtTime(v.FirstSeen))
	f.Add("Last seen", tab.FmtTime(v.LastSeen))
	f.Heading("Payments known to use it")
	if len(v.Payments) == 0 {
		f.Line(th.Muted.Render("none seen yet"))
	}
	for _, id := range v.Payments {
		f.Line(c(id))
	}
	return f.Lines
}

// tokenOf is the token an action's outcome is about: the one it revoked
// or made ("" when none).
func tokenOf(req action.Request, out action.Outcome) string {
	tok, _, _ := action.KindOf(req.Kind).TokenAfter(req, out)
	return tok.ID
}

func tokenTone(s backend.TokenStatus) datatable.Tone {
	switch s {
	case backend.TokenActive:
		return datatable.ToneSuccess
	case backend.TokenCreated:
		return datatable.ToneWarning
	case backend.TokenRevoked, backend.TokenDeclined:
		return datatable.ToneDanger
	}
	return datatable.ToneNone
}
