package tokens

import (
	"cmp"
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

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
	src   tokenSource
	deps  tab.Deps
	keys  keys.Map
	theme ui.Theme
	now   func() time.Time
	owner uint64
	acts  *tab.Tracker
	prep  tab.Preparation // the read before an action's confirmation
	memo  tab.TokenMemo

	// noV2 is why the tab has nothing to show ("" when v2 is configured):
	// tokens exist only in the current interface.
	noV2 string

	list   *tab.PagedList[tab.TokenView]
	detail *tab.Detail[tab.TokenView]
	route  tab.KeyRoute[tab.TokenView] // the keys every list tab handles alike
	scope  ui.Scope
	w, h   int

	lookups   tab.Reader // the lookup (":") under way; older answers are dropped
	looking   bool
	saveWarns int // save failures told (only the first is)

	// dialogs holds the dialog a key opens, for the shell to open at once
	// (ui.DialogOpener).
	dialogs tab.DialogSlot
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
	t := &Tokens{src: d.Backend, deps: d, keys: d.Keys, theme: d.Theme, now: d.TimeNow, owner: tab.NewOwner(),
		memo: tab.NewTokenMemo(d), noV2: tab.NeedsV2(d.Backend, "saved card tokens")}
	t.acts = tab.NewTracker(t.owner, d, func(ref tab.ObjectRef) {
		if ref.Kind == "token" && t.list != nil {
			t.list.Table.Redraw(ref.ID)
		}
	})
	cfg := datatable.Config[tab.TokenView]{
		ID:          func(v tab.TokenView) string { return v.ID },
		Columns:     TokenColumns(func(v tab.TokenView) string { return t.acts.RowMark(tab.TokenRef(v.ID)) }),
		LoadingText: "Reading the known tokens…",
		EndText:     "— the tokens paydash knows; : looks one up by id —",
		EmptyText:   "No tokens known yet: press : to look one up by id, or open a card payment",
	}
	t.list = tab.NewPagedList(cfg, d.Keys, d.Theme, nil)
	t.list.Search = tokenSearch()
	t.list.Dialogs = &t.dialogs
	t.detail = tab.NewDetail(t.readToken, t.detailLines, func(v tab.TokenView) []string {
		if v.Read == nil {
			return tab.RawOrNote(nil, t.theme)
		}
		return tab.RawOrNote(v.Read.Raw, t.theme)
	})
	t.route = tab.KeyRoute[tab.TokenView]{Km: t.keys, List: t.list, Pane: t.detail, Context: t.Context, Available: t.Available}
	t.acts.Adopt(d.Pending, backend.ActionRevokeToken, backend.ActionCreateTokenization)
	return t
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
func (t *Tokens) ID() ui.TabID { return ui.TabTokens }

// Title implements ui.Tab.
func (t *Tokens) Title() string { return "Tokens" }

// Init implements ui.Tab: the known tokens, and the finding out of what an
// earlier run left without an outcome.
func (t *Tokens) Init(s ui.Scope) tea.Cmd { return tea.Batch(t.start(s), t.acts.Resume()) }

// start lists the tokens known for the scope's merchant (the period does
// not apply: a token lasts).
func (t *Tokens) start(s ui.Scope) tea.Cmd {
	merchantChanged := s.MerchantID != t.scope.MerchantID || t.list.Load == nil
	t.scope = s
	if t.noV2 != "" {
		t.list.Table.SetEmptyText(t.noV2)
		return nil
	}
	if !merchantChanged {
		return nil
	}
	t.detail.Close()
	t.looking = false
	t.lookups.Stop()
	t.layout()
	memo, merchant := t.memo, s.MerchantID
	return t.list.Start(func() backend.Pager[tab.TokenView] {
		return tab.OneCall(func(context.Context) ([]tab.TokenView, error) { return memo.List(merchant), nil })
	}, nil)
}

// Context implements ui.Tab.
func (t *Tokens) Context() keys.Context { return tab.ListContext(t.list.Filtering, t.detail.IsOpen()) }

// Status implements ui.Tab.
func (t *Tokens) Status() ui.TabStatus {
	st := t.list.Status()
	t.acts.Counts(&st)
	st.Loading = st.Loading || t.detail.Loading || t.looking || st.Sending > 0
	return st
}

// JumpPrompt implements ui.Jumper: ":" looks a token up by id here.
func (t *Tokens) JumpPrompt() ui.JumpWords {
	return ui.JumpWords{Title: "Look up a token", Hint: "its id (the service reads tokens by id only)",
		Placeholder: "token id", Empty: "type a token id"}
}

// Available implements ui.Tab.
func (t *Tokens) Available(act keys.Action) (bool, string) {
	switch act {
	case keys.ActCapture, keys.ActCancelHold, keys.ActRefund, keys.ActToggleSticker, keys.ActDocuments:
		return false, ""
	case keys.ActExport, keys.ActSort, keys.ActSortReverse:
		if t.noV2 != "" {
			return false, t.noV2
		}
		if act == keys.ActExport {
			return tab.Exportable(t.list)
		}
	case keys.ActRevoke:
		if t.noV2 != "" {
			return false, t.noV2
		}
		v, ok := t.target()
		if !ok {
			return false, "no token is selected"
		}
		return tab.MayRevoke(t.src, t.deps, t.acts, v.ID, v.NewestStatus())
	case keys.ActNew:
		if t.noV2 != "" {
			return false, t.noV2
		}
		return tab.MayAct(t.src, t.deps.Journal, backend.ActionCreateTokenization)
	case keys.ActOpen, keys.ActRaw, keys.ActCopyID, keys.ActCopyMore:
		if t.noV2 != "" {
			return false, t.noV2
		}
		if _, ok := t.target(); !ok {
			return false, "no token is selected"
		}
	}
	return true, ""
}

// target is the token the keys act on: the pane's, else the selected row.
func (t *Tokens) target() (tab.TokenView, bool) {
	if t.detail.IsOpen() {
		return t.detail.Obj, true
	}
	return t.list.Selected()
}

// Update implements ui.Tab: each message to the part it is for.
func (t *Tokens) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	if cmd, _, ok := t.list.Update(msg, t.now()); ok {
		t.layout() // the bottom line comes or goes with the "↑ new" mark
		return t, cmd
	}
	if loaded, ok := t.detail.Update(msg); ok {
		if loaded {
			return t, t.noteRead(t.detail.Obj)
		}
		return t, nil
	}
	if cmd, over, ok := t.acts.Update(msg); ok {
		if over != nil {
			cmd = tea.Batch(cmd, t.showOutcome(*over), tab.Changed(t.owner, *over))
		}
		return t, cmd
	}
	switch msg := msg.(type) {
	case ui.MouseMsg:
		cmd := t.route.Mouse(msg)
		t.layout() // a double click may open the pane
		return t, cmd
	case tea.KeyPressMsg:
		cmd := t.key(msg)
		t.layout()
		return t, cmd
	case ui.ScopeMsg:
		return t, t.start(msg.Scope)
	case ui.RefreshMsg:
		if t.noV2 != "" {
			return t, nil
		}
		return t, tea.Batch(t.list.Refresh(), t.detail.Reload())
	case tab.KnownSavedMsg:
		return t, t.onSaved(msg)
	case tab.ChangedMsg:
		// A token revoked from a payment's pane: its row and pane show it.
		if id := msg.RevokedToken(); msg.From != t.owner && id != "" {
			return t, t.showToken(id)
		}
	case ui.SizeMsg:
		t.w, t.h = msg.Width, msg.Height
		t.layout()
	case ui.ThemeMsg:
		t.theme = msg.Theme
	case ui.JumpMsg:
		return t, t.lookup(msg.Query)
	case tokenLookupMsg:
		cmd := t.onLookup(msg)
		t.layout()
		return t, cmd
	case ui.ActionMsg:
		return t, t.startAction(msg.Action, msg.Ticket)
	case ui.CancelActionMsg:
		t.prep.GiveUp(msg.Ticket)
	case tab.ReadAgainMsg:
		if t.prep.Answered(msg.Stamp) {
			return t, t.onReadAgain(msg)
		}
	case ui.AbandonMsg:
		return t, t.acts.Abandon()
	}
	return t, nil
}

func (t *Tokens) layout() { tab.Arrange(t.list, t.detail, t.w, t.h) }

func (t *Tokens) key(msg tea.KeyPressMsg) tea.Cmd {
	a, cmd, handled := t.route.Handle(msg)
	if handled {
		return cmd
	}
	if a == keys.ActCopyMore {
		return t.copyMore()
	}
	if a == keys.ActRefresh && t.noV2 == "" {
		return tea.Batch(t.list.Refresh(), t.detail.Reload())
	}
	if a == keys.ActExport {
		return t.export()
	}
	return nil
}

// readToken reads the pane's token from the service.
func (t *Tokens) readToken(ctx context.Context, v tab.TokenView) (tab.TokenView, error) {
	tok, err := t.src.GetToken(ctx, v.ID)
	if err != nil {
		return v, err
	}
	v.Read = &tok
	return v, nil
}

// noteRead remembers what a read of the pane's token said (its status,
// title, expiry), and shows it in its row.
func (t *Tokens) noteRead(v tab.TokenView) tea.Cmd {
	if v.Read == nil {
		return nil
	}
	t.list.Upsert(v, t.now())
	return t.memo.Note(t.scope.MerchantID, known.FromToken(*v.Read, known.LookedUp))
}

// onSaved refreshes the list after the store changed (from any tab), and
// tells the first failure to save it.
func (t *Tokens) onSaved(msg tab.KnownSavedMsg) tea.Cmd {
	var cmds []tea.Cmd
	if msg.Err != nil && t.saveWarns == 0 {
		t.saveWarns++
		cmds = append(cmds, tab.ToastCmd(ui.ToastWarning,
			"The known tokens could not be saved (they are kept for this run): "+tab.ErrText(msg.Err)))
	}
	if t.noV2 == "" && t.list.Load != nil {
		cmds = append(cmds, t.list.Refresh())
	}
	return tea.Batch(cmds...)
}

// --- lookup by id (":") ---------------------------------------------------------

// lookup reads a token by id: a known one opens at once (and is read in the
// pane); another is asked of the service and, when it exists, remembered.
func (t *Tokens) lookup(query string) tea.Cmd {
	id := strings.TrimSpace(query)
	if t.noV2 != "" {
		return tab.ToastCmd(ui.ToastWarning, t.noV2)
	}
	if id == "" {
		return nil
	}
	if !known.ValidID(id) {
		return tab.ToastCmd(ui.ToastWarning, "not a token id: "+textsafe.Line(id, 60))
	}
	if sel, ok := t.list.SelectID(id); ok {
		cmd := t.detail.Show(sel, false, false)
		t.layout()
		return cmd
	}
	t.looking = true
	ctx, st := t.lookups.Start(t.list.Context())
	src := t.src
	return func() tea.Msg {
		tok, err := src.GetToken(ctx, id)
		return tokenLookupMsg{stamp: st, id: id, tok: tok, err: err}
	}
}

func (t *Tokens) onLookup(msg tokenLookupMsg) tea.Cmd {
	if !t.lookups.Fresh(msg.stamp) {
		return nil
	}
	t.looking = false
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
	save := t.memo.Note(t.scope.MerchantID, known.FromToken(tok, known.LookedUp))
	v, _ := t.memo.Get(t.scope.MerchantID, tok.ID)
	v.Read = &tok
	t.list.Upsert(v, t.now())
	t.list.SelectID(v.ID)
	return tea.Batch(save, t.detail.Show(v, false, true))
}

// --- actions --------------------------------------------------------------------

// ActionTarget names what an action key acts on, for the preparing dialog.
func (t *Tokens) ActionTarget(act keys.Action) string {
	switch act {
	case keys.ActRevoke:
		if v, ok := t.target(); ok {
			return "Revoke token " + textsafe.Clean(v.ID)
		}
	case keys.ActNew:
		return "New card-saving link"
	}
	return ""
}

// startAction answers an action key: the form of a card-saving link, or
// the token read again before the confirmation of its revocation.
func (t *Tokens) startAction(act keys.Action, ticket int) tea.Cmd {
	if ok, why := t.Available(act); !ok {
		return tab.RefusedCmd(ticket, ui.ToastWarning, why)
	}
	switch act {
	case keys.ActNew:
		return tab.OpenCreate(ticket, tab.CreateTokenization, tab.FormDefaults(t.scope, t.theme, t.now), t.keys, t.acts)
	case keys.ActRevoke:
		v, _ := t.target()
		src, id := t.src, v.ID
		return tab.ReadAgain(&t.prep, ticket, act, func(ctx context.Context) (backend.Token, error) {
			return src.GetToken(ctx, id)
		})
	}
	return tab.RefusedCmd(ticket, ui.ToastWarning, "this tab has no such action")
}

// onReadAgain opens the confirmation of a revocation on the token as it
// is now, or says why it cannot.
func (t *Tokens) onReadAgain(msg tab.ReadAgainMsg) tea.Cmd {
	tok, _ := msg.Obj.(backend.Token)
	if msg.Err != nil {
		return tab.CouldNotRead(msg.Ticket, "the token before revoking it", msg.Err)
	}
	save := t.memo.Note(t.scope.MerchantID, known.FromToken(tok, known.LookedUp))
	v, _ := t.memo.Get(t.scope.MerchantID, tok.ID)
	v.Read = &tok
	t.list.Upsert(v, t.now())
	if t.detail.IsOpen() && t.detail.Obj.ID == tok.ID {
		t.detail.Set(v)
	}
	if ok, why := tab.MayRevoke(t.src, t.deps, t.acts, tok.ID, tok.Status); !ok {
		return tea.Batch(save, tab.RefusedCmd(msg.Ticket, ui.ToastWarning, why))
	}
	return tea.Batch(save, tab.MsgCmd(ui.OpenConfirmMsg{Ticket: msg.Ticket, Spec: tab.RevokeSpec(tok, v.Payments, "", t.acts)}))
}

// showToken puts the token as now known into the list and the pane, and
// reads the pane's again.
func (t *Tokens) showToken(id string) tea.Cmd {
	v, ok := t.memo.Get(t.scope.MerchantID, id)
	if !ok {
		return nil
	}
	t.list.Upsert(v, t.now())
	if t.detail.IsOpen() && t.detail.Obj.ID == id {
		t.detail.Set(v)
		return t.detail.Reload()
	}
	return nil
}

// showOutcome puts what an action over brought into the store, the list
// and the pane; a card-saving link opens in the result dialog.
func (t *Tokens) showOutcome(msg tab.OutcomeMsg) tea.Cmd {
	var cmds []tea.Cmd
	if msg.Out.State == action.Done {
		cmds = append(cmds, t.memo.NoteOutcome(t.scope.MerchantID, msg.Req, msg.Out))
		if v, ok := t.memo.Get(t.scope.MerchantID, tokenOf(msg.Req, msg.Out)); ok {
			if msg.Out.Token.ID != "" {
				tok := msg.Out.Token
				v.Read = &tok
			}
			t.list.Upsert(v, t.now())
			t.list.Own(v.ID)
			if t.detail.IsOpen() && t.detail.Obj.ID == v.ID {
				t.detail.Set(v)
			}
		}
		cmds = append(cmds, tab.CreatedDialog(msg.Req, msg.Out, t.keys, t.theme))
	}
	if t.detail.IsOpen() && t.detail.Obj.ID == msg.Req.ObjectID {
		cmds = append(cmds, t.detail.Reload())
	}
	return tea.Batch(cmds...)
}

// --- view -----------------------------------------------------------------------

// View implements ui.Tab.
func (t *Tokens) View(w, h int) string {
	var pane []string
	if t.detail.IsOpen() {
		pane = t.detail.Lines(t.theme, "Token "+textsafe.Clean(t.detail.Obj.ID))
	}
	return tab.Frame(t.theme, t.list, pane, w, h)
}

// detailLines is the token, one fact a line: its status, card and expiry
// as the service last said, and the payments known to use it.
func (t *Tokens) detailLines() []string {
	th := t.theme
	d := t.detail
	v := d.Obj
	c := textsafe.Clean
	f := &tab.Fields{Theme: th, LabelW: 14, Width: d.Inner()}
	if d.Loading && v.Read == nil {
		f.Line(th.Muted.Render("reading the token…"))
	}
	if d.Err != nil {
		f.Failure("", d.Err)
	}
	for _, l := range t.acts.PaneLines(th, tab.TokenRef(v.ID)) {
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

// TakeDialog implements ui.DialogOpener.
func (t *Tokens) TakeDialog() ui.Modal { return t.dialogs.Take() }

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
