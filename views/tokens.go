package views

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
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
)

// Tokens is the Tokens tab. The service reads a saved card token by its id
// but cannot list them, so the tab lists the tokens paydash knows
// (backend/known): those used by payments it read, those it created, and
// those looked up by id with ":". The pane reads the token from the service
// and shows its card and the payments known to use it; v revokes it and n
// makes a card-saving link, each behind a confirmation.
type Tokens struct {
	src   tokenSource
	deps  Deps
	keys  keys.Map
	theme ui.Theme
	now   func() time.Time
	owner uint64
	acts  *tracker
	prep  preparation // the read before an action's confirmation
	memo  tokenMemo

	// noV2 is why the tab has nothing to show ("" when v2 is configured):
	// tokens exist only in the current interface.
	noV2 string

	list   *pagedList[tokenView]
	detail *detail[tokenView]
	route  keyRoute[tokenView] // the keys every list tab handles alike
	scope  ui.Scope
	w, h   int

	lookups   reader // the lookup (":") under way; older answers are dropped
	looking   bool
	saveWarns int // save failures told (only the first is)

	// dialogs holds the dialog a key opens, for the shell to open at once
	// (ui.DialogOpener).
	dialogs dialogSlot
}

// tokenSource is what the Tokens tab asks of the backend.
type tokenSource interface {
	Can(a backend.ActionName) (bool, string)
	GetToken(ctx context.Context, id string) (backend.Token, error)
}

// tokenView is a token as the tab shows it: what paydash remembers of it,
// and what the service said when the pane last read it (nil until then).
type tokenView struct {
	known.Token
	read *backend.Token
}

// newestStatus is the newest status known: the service's when read.
func (v tokenView) newestStatus() backend.TokenStatus {
	if v.read != nil && v.read.Status != "" {
		return v.read.Status
	}
	return v.Status
}

// tokenLookupMsg is the answer of a lookup by id (":").
type tokenLookupMsg struct {
	stamp stamp // the lookup's
	id    string
	tok   backend.Token
	err   error
}

// NewTokens makes the Tokens tab.
func NewTokens(d Deps) ui.Tab {
	t := &Tokens{src: d.Backend, deps: d, keys: d.Keys, theme: d.Theme, now: d.timeNow, owner: newOwner(),
		memo: newTokenMemo(d), noV2: needsV2(d.Backend, "saved card tokens")}
	t.acts = newTracker(t.owner, d, func(ref objectRef) {
		if ref.kind == "token" && t.list != nil {
			t.list.table.Redraw(ref.id)
		}
	})
	cfg := datatable.Config[tokenView]{
		ID:          func(v tokenView) string { return v.ID },
		Columns:     tokenColumns(func(v tokenView) string { return t.acts.rowMark(tokenRef(v.ID)) }),
		LoadingText: "Reading the known tokens…",
		EndText:     "— the tokens paydash knows; : looks one up by id —",
		EmptyText:   "No tokens known yet: press : to look one up by id, or open a card payment",
	}
	t.list = newPagedList(cfg, d.Keys, d.Theme, nil)
	t.list.search = tokenSearch()
	t.list.dialogs = &t.dialogs
	t.detail = newDetail(t.readToken, t.detailLines, func(v tokenView) []string {
		if v.read == nil {
			return rawOrNote(nil, t.theme)
		}
		return rawOrNote(v.read.Raw, t.theme)
	})
	t.route = keyRoute[tokenView]{km: t.keys, list: t.list, pane: t.detail, context: t.Context, available: t.Available}
	t.acts.adopt(d.Pending, backend.ActionRevokeToken, backend.ActionCreateTokenization)
	return t
}

// tokenColumns are the list's columns; rowMark overrides the status while
// an action is under way on a token.
func tokenColumns(rowMark func(tokenView) string) []datatable.Column[tokenView] {
	status := func(v tokenView) string {
		if m := rowMark(v); m != "" {
			return m
		}
		return tokenStatusText(v.newestStatus())
	}
	return []datatable.Column[tokenView]{
		{Key: "id", Title: "ID", Width: 10, MaxWidth: 40, Priority: 100,
			Text: func(v tokenView) string { return v.ID },
			Less: func(a, b tokenView) int { return cmpIDs(a.ID, b.ID) }},
		{Key: "status", Title: "Status", Width: 12, Priority: 90,
			Text: status,
			Tone: func(v tokenView) datatable.Tone { return markedTone(rowMark(v), tokenTone(v.newestStatus())) },
			Less: func(a, b tokenView) int { return cmp.Compare(a.newestStatus(), b.newestStatus()) }},
		{Key: "title", Title: "Card", Width: 20, Flex: 1, Priority: 80,
			Text: func(v tokenView) string { return v.Title },
			Less: func(a, b tokenView) int { return cmp.Compare(a.Title, b.Title) }},
		{Key: "expires", Title: "Expires", Width: 8, Priority: 60,
			Text: func(v tokenView) string { return fmtExpiry(v.Expires) },
			Less: func(a, b tokenView) int { return a.Expires.Compare(b.Expires) }},
		{Key: "payments", Title: "Payments", Width: 8, Priority: 50, Align: lipgloss.Right,
			Text: func(v tokenView) string { return strconv.Itoa(len(v.Payments)) },
			Less: func(a, b tokenView) int { return cmp.Compare(len(a.Payments), len(b.Payments)) }},
		{Key: "source", Title: "Known from", Width: 10, Priority: 40,
			Text: func(v tokenView) string { return sourceText(v.Source) },
			Less: func(a, b tokenView) int { return cmp.Compare(a.Source, b.Source) }},
		{Key: "seen", Title: "Last seen", Width: 12, Priority: 30,
			Text: func(v tokenView) string { return fmtListTime(v.LastSeen) },
			Less: func(a, b tokenView) int { return a.LastSeen.Compare(b.LastSeen) }},
	}
}

// tokenStatusText is the status with a marker that reads without colour.
func tokenStatusText(s backend.TokenStatus) string {
	m := " "
	switch s {
	case backend.TokenActive:
		m = "✓"
	case backend.TokenCreated:
		m = "~"
	case backend.TokenRevoked:
		m = "✗"
	case backend.TokenDeclined:
		m = "-"
	case "":
		return "? unknown"
	}
	return m + " " + textsafe.Clean(string(s))
}

func tokenStatusStyle(th ui.Theme, s backend.TokenStatus) func(...string) string {
	switch s {
	case backend.TokenActive:
		return th.Success.Render
	case backend.TokenCreated:
		return th.Warning.Render
	case backend.TokenRevoked, backend.TokenDeclined:
		return th.Danger.Render
	}
	return th.Text.Render
}

// fmtExpiry is a card's expiry as printed on it: "12/2029".
func fmtExpiry(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("01/2006")
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
func (t *Tokens) Init(s ui.Scope) tea.Cmd { return tea.Batch(t.start(s), t.acts.resume()) }

// start lists the tokens known for the scope's merchant (the period does
// not apply: a token lasts).
func (t *Tokens) start(s ui.Scope) tea.Cmd {
	merchantChanged := s.MerchantID != t.scope.MerchantID || t.list.load == nil
	t.scope = s
	if t.noV2 != "" {
		t.list.table.SetEmptyText(t.noV2)
		return nil
	}
	if !merchantChanged {
		return nil
	}
	t.detail.close()
	t.looking = false
	t.lookups.stop()
	t.layout()
	memo, merchant := t.memo, s.MerchantID
	return t.list.start(func() backend.Pager[tokenView] {
		return oneCall(func(context.Context) ([]tokenView, error) { return memo.list(merchant), nil })
	}, nil)
}

// Context implements ui.Tab.
func (t *Tokens) Context() keys.Context { return listContext(t.list.filtering, t.detail.isOpen()) }

// Status implements ui.Tab.
func (t *Tokens) Status() ui.TabStatus {
	st := t.list.status()
	t.acts.counts(&st)
	st.Loading = st.Loading || t.detail.loading || t.looking || st.Sending > 0
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
			return exportable(t.list)
		}
	case keys.ActRevoke:
		if t.noV2 != "" {
			return false, t.noV2
		}
		v, ok := t.target()
		if !ok {
			return false, "no token is selected"
		}
		return mayRevoke(t.src, t.deps, t.acts, v.ID, v.newestStatus())
	case keys.ActNew:
		if t.noV2 != "" {
			return false, t.noV2
		}
		return mayAct(t.src, t.deps.Journal, backend.ActionCreateTokenization)
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
func (t *Tokens) target() (tokenView, bool) {
	if t.detail.isOpen() {
		return t.detail.obj, true
	}
	return t.list.selected()
}

// Update implements ui.Tab: each message to the part it is for.
func (t *Tokens) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	if cmd, _, ok := t.list.update(msg, t.now()); ok {
		t.layout() // the bottom line comes or goes with the "↑ new" mark
		return t, cmd
	}
	if loaded, ok := t.detail.update(msg); ok {
		if loaded {
			return t, t.noteRead(t.detail.obj)
		}
		return t, nil
	}
	if cmd, over, ok := t.acts.update(msg); ok {
		if over != nil {
			cmd = tea.Batch(cmd, t.showOutcome(*over), changed(t.owner, *over))
		}
		return t, cmd
	}
	switch msg := msg.(type) {
	case ui.MouseMsg:
		cmd := t.route.mouse(msg)
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
		return t, tea.Batch(t.list.refresh(), t.detail.reload())
	case knownSavedMsg:
		return t, t.onSaved(msg)
	case changedMsg:
		// A token revoked from a payment's pane: its row and pane show it.
		if id := msg.revokedToken(); msg.from != t.owner && id != "" {
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
		t.prep.giveUp(msg.Ticket)
	case readAgainMsg:
		if t.prep.answered(msg.stamp) {
			return t, t.onReadAgain(msg)
		}
	case ui.AbandonMsg:
		return t, t.acts.abandon()
	}
	return t, nil
}

func (t *Tokens) layout() { arrange(t.list, t.detail, t.w, t.h) }

func (t *Tokens) key(msg tea.KeyPressMsg) tea.Cmd {
	a, cmd, handled := t.route.handle(msg)
	if handled {
		return cmd
	}
	if a == keys.ActCopyMore {
		return t.copyMore()
	}
	if a == keys.ActRefresh && t.noV2 == "" {
		return tea.Batch(t.list.refresh(), t.detail.reload())
	}
	if a == keys.ActExport {
		return t.export()
	}
	return nil
}

// readToken reads the pane's token from the service.
func (t *Tokens) readToken(ctx context.Context, v tokenView) (tokenView, error) {
	tok, err := t.src.GetToken(ctx, v.ID)
	if err != nil {
		return v, err
	}
	v.read = &tok
	return v, nil
}

// noteRead remembers what a read of the pane's token said (its status,
// title, expiry), and shows it in its row.
func (t *Tokens) noteRead(v tokenView) tea.Cmd {
	if v.read == nil {
		return nil
	}
	t.list.upsert(v, t.now())
	return t.memo.note(t.scope.MerchantID, known.FromToken(*v.read, known.LookedUp))
}

// onSaved refreshes the list after the store changed (from any tab), and
// tells the first failure to save it.
func (t *Tokens) onSaved(msg knownSavedMsg) tea.Cmd {
	var cmds []tea.Cmd
	if msg.err != nil && t.saveWarns == 0 {
		t.saveWarns++
		cmds = append(cmds, toastCmd(ui.ToastWarning,
			"The known tokens could not be saved (they are kept for this run): "+errText(msg.err)))
	}
	if t.noV2 == "" && t.list.load != nil {
		cmds = append(cmds, t.list.refresh())
	}
	return tea.Batch(cmds...)
}

// --- lookup by id (":") ---------------------------------------------------------

// lookup reads a token by id: a known one opens at once (and is read in the
// pane); another is asked of the service and, when it exists, remembered.
func (t *Tokens) lookup(query string) tea.Cmd {
	id := strings.TrimSpace(query)
	if t.noV2 != "" {
		return toastCmd(ui.ToastWarning, t.noV2)
	}
	if id == "" {
		return nil
	}
	if !known.ValidID(id) {
		return toastCmd(ui.ToastWarning, "not a token id: "+textsafe.Line(id, 60))
	}
	if sel, ok := t.list.selectID(id); ok {
		cmd := t.detail.show(sel, false, false)
		t.layout()
		return cmd
	}
	t.looking = true
	ctx, st := t.lookups.start(t.list.context())
	src := t.src
	return func() tea.Msg {
		tok, err := src.GetToken(ctx, id)
		return tokenLookupMsg{stamp: st, id: id, tok: tok, err: err}
	}
}

func (t *Tokens) onLookup(msg tokenLookupMsg) tea.Cmd {
	if !t.lookups.fresh(msg.stamp) {
		return nil
	}
	t.looking = false
	id := textsafe.Line(msg.id, 60)
	switch {
	case msg.err != nil && cancelled(msg.err):
		return nil
	case msg.err != nil && backend.KindOf(msg.err) == backend.KindNotFound:
		return msgCmd(ui.ErrorMsg{Err: errors.New("no token " + id + " at the service"),
			Hint: "token ids are in a payment's pane (Token) or in the card-saving link's answer"})
	case msg.err != nil:
		return errorCmd(msg.err)
	}
	tok := msg.tok
	if tok.ID == "" {
		tok.ID = msg.id
	}
	save := t.memo.note(t.scope.MerchantID, known.FromToken(tok, known.LookedUp))
	v, _ := t.memo.get(t.scope.MerchantID, tok.ID)
	v.read = &tok
	t.list.upsert(v, t.now())
	t.list.selectID(v.ID)
	return tea.Batch(save, t.detail.show(v, false, true))
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
		return refusedCmd(ticket, ui.ToastWarning, why)
	}
	switch act {
	case keys.ActNew:
		return openCreate(ticket, createTokenization, formDefaults(t.scope, t.theme, t.now), t.keys, t.acts)
	case keys.ActRevoke:
		v, _ := t.target()
		src, id := t.src, v.ID
		return readAgain(&t.prep, ticket, act, func(ctx context.Context) (backend.Token, error) {
			return src.GetToken(ctx, id)
		})
	}
	return refusedCmd(ticket, ui.ToastWarning, "this tab has no such action")
}

// onReadAgain opens the confirmation of a revocation on the token as it
// is now, or says why it cannot.
func (t *Tokens) onReadAgain(msg readAgainMsg) tea.Cmd {
	tok, _ := msg.obj.(backend.Token)
	if msg.err != nil {
		return couldNotRead(msg.ticket, "the token before revoking it", msg.err)
	}
	save := t.memo.note(t.scope.MerchantID, known.FromToken(tok, known.LookedUp))
	v, _ := t.memo.get(t.scope.MerchantID, tok.ID)
	v.read = &tok
	t.list.upsert(v, t.now())
	if t.detail.isOpen() && t.detail.obj.ID == tok.ID {
		t.detail.set(v)
	}
	if ok, why := mayRevoke(t.src, t.deps, t.acts, tok.ID, tok.Status); !ok {
		return tea.Batch(save, refusedCmd(msg.ticket, ui.ToastWarning, why))
	}
	return tea.Batch(save, msgCmd(ui.OpenConfirmMsg{Ticket: msg.ticket, Spec: revokeSpec(tok, v.Payments, "", t.acts)}))
}

// showToken puts the token as now known into the list and the pane, and
// reads the pane's again.
func (t *Tokens) showToken(id string) tea.Cmd {
	v, ok := t.memo.get(t.scope.MerchantID, id)
	if !ok {
		return nil
	}
	t.list.upsert(v, t.now())
	if t.detail.isOpen() && t.detail.obj.ID == id {
		t.detail.set(v)
		return t.detail.reload()
	}
	return nil
}

// showOutcome puts what an action over brought into the store, the list
// and the pane; a card-saving link opens in the result dialog.
func (t *Tokens) showOutcome(msg outcomeMsg) tea.Cmd {
	var cmds []tea.Cmd
	if msg.out.State == action.Done {
		cmds = append(cmds, t.memo.noteOutcome(t.scope.MerchantID, msg.req, msg.out))
		if v, ok := t.memo.get(t.scope.MerchantID, tokenOf(msg.req, msg.out)); ok {
			if msg.out.Token.ID != "" {
				tok := msg.out.Token
				v.read = &tok
			}
			t.list.upsert(v, t.now())
			t.list.own(v.ID)
			if t.detail.isOpen() && t.detail.obj.ID == v.ID {
				t.detail.set(v)
			}
		}
		cmds = append(cmds, createdDialog(msg.req, msg.out, t.keys, t.theme))
	}
	if t.detail.isOpen() && t.detail.obj.ID == msg.req.ObjectID {
		cmds = append(cmds, t.detail.reload())
	}
	return tea.Batch(cmds...)
}

// --- view -----------------------------------------------------------------------

// View implements ui.Tab.
func (t *Tokens) View(w, h int) string {
	var pane []string
	if t.detail.isOpen() {
		pane = t.detail.lines(t.theme, "Token "+textsafe.Clean(t.detail.obj.ID))
	}
	return frame(t.theme, t.list, pane, w, h)
}

// detailLines is the token, one fact a line: its status, card and expiry
// as the service last said, and the payments known to use it.
func (t *Tokens) detailLines() []string {
	th := t.theme
	d := t.detail
	v := d.obj
	c := textsafe.Clean
	f := &fields{theme: th, labelW: 14, width: d.inner()}
	if d.loading && v.read == nil {
		f.line(th.Muted.Render("reading the token…"))
	}
	if d.err != nil {
		f.failure("", d.err)
	}
	for _, l := range t.acts.paneLines(th, tokenRef(v.ID)) {
		f.line(l)
	}
	st := v.newestStatus()
	f.addAlways("Status", tokenStatusStyle(th, st)(tokenStatusText(st)))
	if st == backend.TokenRevoked {
		f.line(th.Danger.Render("Revoked: the saved card can no longer be charged."))
	}
	f.add("Card", c(v.Title))
	f.add("Expires", fmtExpiry(v.Expires))
	if r := v.read; r != nil {
		f.add("Result", c(r.ResultCode))
		if cd := r.Card; cd != nil {
			f.add("Brand", c(cd.Brand))
			f.add("Issuer", c(cd.Issuer))
			f.add("Country", c(cd.Country))
			f.add("Card type", c(cd.Type))
			f.add("Category", c(cd.Category))
		}
		if cf := r.Confirmation; cf != nil {
			f.add("To confirm", c(cf.PaymentURL))
		}
	}
	f.heading("Known to paydash")
	f.add("From", sourceText(v.Source))
	f.add("First seen", fmtTime(v.FirstSeen))
	f.add("Last seen", fmtTime(v.LastSeen))
	f.heading("Payments known to use it")
	if len(v.Payments) == 0 {
		f.line(th.Muted.Render("none seen yet"))
	}
	for _, id := range v.Payments {
		f.line(c(id))
	}
	return f.lines
}

// --- revoke, shared with the Payments tab's pane -----------------------------------

// mayRevoke says whether token id, whose status is st as last known, can
// be revoked now.
func mayRevoke(src capable, d Deps, acts *tracker, id string, st backend.TokenStatus) (bool, string) {
	if ok, why := mayAct(src, d.Journal, backend.ActionRevokeToken); !ok {
		return false, why
	}
	if tr := acts.on(tokenRef(id)); tr != nil {
		return false, tr.busyReason()
	}
	if st == backend.TokenRevoked {
		return false, "token " + textsafe.Clean(id) + " is already revoked"
	}
	return true, ""
}

// revokeSpec is the confirmation of revoking tok; payments are those
// known to use it, and from the payment the user came from ("" when none).
func revokeSpec(tok backend.Token, payments []string, from string, acts *tracker) ui.ConfirmSpec {
	c := textsafe.Clean
	id := c(tok.ID)
	title := c(tok.Title)
	if title == "" {
		title = "card not named"
	}
	lines := []string{"Token " + id + " · " + title}
	if e := fmtExpiry(tok.Expires); e != "" {
		lines[0] += " · expires " + e
	}
	if from != "" {
		lines = append(lines, "Used by payment "+c(from))
	}
	if n := len(payments); n > 0 {
		shown := payments[:min(n, 3)]
		s := "Payments known to use it: " + strconv.Itoa(n) + " (" + c(strings.Join(shown, ", "))
		if n > len(shown) {
			s += ", …"
		}
		lines = append(lines, s+")")
	}
	lines = append(lines,
		"Now: "+tokenStatusText(tok.Status)+" → after: Revoked",
		"The customer's saved card can no longer be charged. This cannot be undone.",
		"Sent through: v2 (the current interface)")
	tokID := tok.ID
	return ui.ConfirmSpec{
		Title:   "Revoke token " + id,
		Lines:   lines,
		Verb:    "Revoke",
		Danger:  true,
		Confirm: func(money.Amount) tea.Cmd { return acts.send(action.NewRevoke(tokID, backend.V2)) },
	}
}

// tokenOf is the token an action's outcome is about: the one it revoked
// or made ("" when none).
func tokenOf(req action.Request, out action.Outcome) string {
	tok, _, _ := action.KindOf(req.Kind).TokenAfter(req, out)
	return tok.ID
}
