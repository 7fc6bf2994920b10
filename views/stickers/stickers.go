package stickers

import (
	"cmp"
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/ui/qr"
	"paydash/views/tab"
)

// Stickers is the Stickers tab: the merchant's payment stickers (v2 lists
// them by merchant, with no period), a detail pane with the payload drawn
// as a QR code a phone can read from the screen, switching a sticker on or
// off (t) and making a new one (n), each behind a confirmation.
type Stickers struct {
	src   stickerSource
	deps  tab.Deps
	keys  keys.Map
	theme ui.Theme
	now   func() time.Time
	owner uint64
	acts  *tab.Tracker
	prep  tab.Preparation // the read before an action's confirmation

	// noV2 is why the tab has nothing to show ("" when v2 is configured):
	// stickers exist only in the current interface.
	noV2 string

	List   *tab.PagedList[backend.Sticker]
	detail *tab.Detail[backend.Sticker]
	route  tab.KeyRoute[backend.Sticker] // the keys every list tab handles alike
	scope  ui.Scope
	w, h   int

	// dialogs holds the dialog a key opens, for the shell to open at once
	// (ui.DialogOpener).
	dialogs tab.DialogSlot
}

// stickerSource is what the Stickers tab asks of the backend.
type stickerSource interface {
	Can(a backend.ActionName) (bool, string)
	ListStickers(q backend.StickerQuery) backend.Pager[backend.Sticker]
	GetSticker(ctx context.Context, id string) (backend.Sticker, error)
}

// New makes the Stickers tab.
func New(d tab.Deps) ui.Tab {
	t := &Stickers{src: d.Backend, deps: d, keys: d.Keys, theme: d.Theme, now: d.TimeNow, owner: tab.NewOwner(),
		noV2: tab.NeedsV2(d.Backend, "stickers")}
	t.acts = tab.NewTracker(t.owner, d, func(ref tab.ObjectRef) {
		if ref.Kind == "sticker" && t.List != nil {
			t.List.Table.Redraw(ref.ID)
		}
	})
	cfg := datatable.Config[backend.Sticker]{
		ID:          func(s backend.Sticker) string { return s.ID },
		Columns:     StickerColumns(func(s backend.Sticker) string { return t.acts.RowMark(tab.StickerRef(s.ID)) }),
		LoadingText: "Loading more stickers…",
		EndText:     "— end of the list —",
		EmptyText:   "This merchant has no stickers",
	}
	t.List = tab.NewPagedList(cfg, d.Keys, d.Theme, nil)
	t.List.Search = stickerSearch()
	t.List.Dialogs = &t.dialogs
	t.detail = tab.NewDetail(t.readSticker, t.detailLines, func(s backend.Sticker) []string { return tab.RawOrNote(s.Raw, t.theme) })
	t.route = tab.KeyRoute[backend.Sticker]{Km: t.keys, List: t.List, Pane: t.detail, Context: t.Context, Available: t.Available}
	t.acts.Adopt(d.Pending, backend.ActionToggleSticker, backend.ActionCreateSticker)
	return t
}

// StickerColumns are the list's columns; rowMark (nil: none) overrides the
// status while an action is under way on a sticker.
func StickerColumns(rowMark func(backend.Sticker) string) []datatable.Column[backend.Sticker] {
	status := func(s backend.Sticker) string {
		if rowMark != nil {
			if m := rowMark(s); m != "" {
				return m
			}
		}
		return stickerStatusText(s)
	}
	return []datatable.Column[backend.Sticker]{
		{Key: "id", Title: "ID", Width: 8, MaxWidth: 24, Priority: 100,
			Text: func(s backend.Sticker) string { return s.ID },
			Less: func(a, b backend.Sticker) int { return tab.CmpIDs(a.ID, b.ID) }},
		{Key: "status", Title: "Status", Width: 12, Priority: 90,
			Text: status,
			Tone: func(s backend.Sticker) datatable.Tone {
				if rowMark != nil {
					return tab.MarkedTone(rowMark(s), stickerTone(s))
				}
				return stickerTone(s)
			},
			Less: func(a, b backend.Sticker) int { return cmp.Compare(a.Status, b.Status) }},
		{Key: "amount", Title: "Amount", Width: 10, MaxWidth: 18, Priority: 70, Align: lipgloss.Right,
			Text:  func(s backend.Sticker) string { return stickerAmount(s) },
			Less:  func(a, b backend.Sticker) int { return tab.CmpAmounts(a.Amount, b.Amount) },
			Group: func(s backend.Sticker) string { return s.Amount.Currency }},
		{Key: "description", Title: "Description", Width: 14, Flex: 1, Priority: 80,
			Text: func(s backend.Sticker) string { return s.Description },
			Less: func(a, b backend.Sticker) int { return cmp.Compare(a.Description, b.Description) }},
		{Key: "product", Title: "Product", Width: 10, MaxWidth: 24, Priority: 40,
			Text: func(s backend.Sticker) string { return s.ProductCode },
			Less: func(a, b backend.Sticker) int { return cmp.Compare(a.ProductCode, b.ProductCode) }},
		{Key: "type", Title: "Type", Width: 5, Priority: 30,
			Text: func(s backend.Sticker) string { return s.StickerType },
			Less: func(a, b backend.Sticker) int { return cmp.Compare(a.StickerType, b.StickerType) }},
	}
}

// stickerStatusText is the status with a marker that reads without colour.
func stickerStatusText(s backend.Sticker) string {
	if s.Active() {
		return "✓ " + textsafe.Clean(s.Status)
	}
	return "- " + textsafe.Clean(s.Status)
}

// stickerAmount is the sticker's fixed amount, or "any" when the payer
// chooses it.
func stickerAmount(s backend.Sticker) string {
	if s.Amount.Value.IsZero() {
		return "any amount"
	}
	return tab.FmtAmount(s.Amount)
}

// ID implements ui.Tab.
func (t *Stickers) ID() ui.TabID { return ui.TabStickers }

// Title implements ui.Tab.
func (t *Stickers) Title() string { return "Stickers" }

// Init implements ui.Tab: the first load of the merchant's stickers, and
// the finding out of what an earlier run left without an outcome.
func (t *Stickers) Init(s ui.Scope) tea.Cmd { return tea.Batch(t.start(s), t.acts.Resume()) }

// start loads the stickers of the scope's merchant (the period does not
// apply: a sticker lasts).
func (t *Stickers) start(s ui.Scope) tea.Cmd {
	merchantChanged := s.MerchantID != t.scope.MerchantID || t.List.Load == nil
	t.scope = s
	if t.noV2 != "" {
		t.List.Table.SetEmptyText(t.noV2)
		return nil
	}
	if !merchantChanged {
		return nil
	}
	t.detail.Close()
	t.layout()
	q := backend.StickerQuery{MerchantID: s.MerchantID}
	return t.List.Start(func() backend.Pager[backend.Sticker] { return t.src.ListStickers(q) },
		func(st backend.Sticker) bool { return st.MerchantID == "" || st.MerchantID == q.MerchantID })
}

// Context implements ui.Tab.
func (t *Stickers) Context() keys.Context {
	return tab.ListContext(t.List.Filtering, t.detail.IsOpen())
}

// Status implements ui.Tab.
func (t *Stickers) Status() ui.TabStatus {
	st := t.List.Status()
	t.acts.Counts(&st)
	st.Loading = st.Loading || t.detail.Loading || st.Sending > 0
	return st
}

// Available implements ui.Tab.
func (t *Stickers) Available(action keys.Action) (bool, string) {
	switch action {
	case keys.ActCapture, keys.ActCancelHold, keys.ActRefund, keys.ActRevoke, keys.ActDocuments:
		return false, ""
	case keys.ActExport, keys.ActSort, keys.ActSortReverse:
		if t.noV2 != "" {
			return false, t.noV2
		}
		if action == keys.ActExport {
			return tab.Exportable(t.List)
		}
	case keys.ActToggleSticker:
		if t.noV2 != "" {
			return false, t.noV2
		}
		s, ok := t.target()
		if !ok {
			return false, "no sticker is selected"
		}
		return t.mayToggle(s)
	case keys.ActNew:
		if t.noV2 != "" {
			return false, t.noV2
		}
		return tab.MayAct(t.src, t.deps.Journal, backend.ActionCreateSticker)
	case keys.ActOpen, keys.ActRaw, keys.ActCopyID, keys.ActCopyMore:
		if t.noV2 != "" {
			return false, t.noV2
		}
		if _, ok := t.target(); !ok {
			return false, "no sticker is selected"
		}
	}
	return true, ""
}

// target is the sticker copy id acts on: the pane's, else the selected row.
func (t *Stickers) target() (backend.Sticker, bool) {
	if t.detail.IsOpen() {
		return t.detail.Obj, true
	}
	return t.List.Selected()
}

// Update implements ui.Tab: each message to the part it is for.
func (t *Stickers) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	if cmd, _, ok := t.List.Update(msg, t.now()); ok {
		t.layout() // the bottom line comes or goes with the "↑ new" mark
		return t, cmd
	}
	if loaded, ok := t.detail.Update(msg); ok {
		if loaded {
			t.List.Upsert(t.detail.Obj, t.now())
		}
		return t, nil
	}
	if cmd, over, ok := t.acts.Update(msg); ok {
		if over != nil {
			cmd = tea.Batch(cmd, t.showOutcome(*over))
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
		return t, tea.Batch(t.List.Refresh(), t.detail.Reload())
	case ui.SizeMsg:
		t.w, t.h = msg.Width, msg.Height
		t.layout()
	case ui.ThemeMsg:
		t.theme = msg.Theme
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

func (t *Stickers) layout() { tab.Arrange(t.List, t.detail, t.w, t.h) }

func (t *Stickers) key(msg tea.KeyPressMsg) tea.Cmd {
	a, cmd, handled := t.route.Handle(msg)
	if handled {
		return cmd
	}
	if a == keys.ActCopyMore {
		return t.copyMore()
	}
	if a == keys.ActRefresh && t.noV2 == "" {
		return t.List.Refresh()
	}
	if a == keys.ActExport {
		return t.export()
	}
	return nil
}

func (t *Stickers) readSticker(ctx context.Context, s backend.Sticker) (backend.Sticker, error) {
	got, err := t.src.GetSticker(ctx, s.ID)
	if err != nil {
		return s, err
	}
	if got.MerchantID == "" {
		got.MerchantID = s.MerchantID
	}
	return got, nil
}

// View implements ui.Tab.
func (t *Stickers) View(w, h int) string {
	var pane []string
	if t.detail.IsOpen() {
		pane = t.detail.Lines(t.theme, "Sticker "+textsafe.Clean(t.detail.Obj.ID))
	}
	return tab.Frame(t.theme, t.List, pane, w, h)
}

// detailLines is the sticker, one fact a line, and its payload as a QR
// code under them.
func (t *Stickers) detailLines() []string {
	th := t.theme
	d := t.detail
	s := d.Obj
	c := textsafe.Clean
	f := &tab.Fields{Theme: th, LabelW: 16, Width: d.Inner()} // the payload wraps, whole
	if d.Loading && len(s.Raw) == 0 {
		f.Line(th.Muted.Render("reading the full sticker…"))
	}
	if d.Err != nil {
		f.Failure("", d.Err)
	}
	st := th.Danger
	if s.Active() {
		st = th.Success
	}
	for _, l := range t.acts.PaneLines(th, tab.StickerRef(s.ID)) {
		f.Line(l)
	}
	f.AddAlways("Status", st.Render(stickerStatusText(s)))
	f.Add("Description", c(s.Description))
	f.Add("Amount", stickerAmount(s))
	f.Add("Type", c(s.StickerType))
	f.Add("Cash link", tab.YesNo(s.Cashlink))
	f.Add("Product code", c(s.ProductCode))
	f.Add("Purpose", c(s.PaymentPurpose))
	f.Add("Merchant", c(s.MerchantID))
	f.Add("Payload", c(s.Payload))
	f.Heading("QR code")
	f.Lines = append(f.Lines, qrLines(th, s.Payload, tab.PaneBody(d.H), d.Inner())...)
	return f.Lines
}

// qrLines draws payload as a QR code for the theme (qrLook: black on
// white when colours may be used, else in the terminal's own colours).
// room is the lines the pane shows: a code taller than that cannot be
// scanned whole, and says so, in lines wrapped to width (the code's own
// lines are never wrapped).
func qrLines(th ui.Theme, payload string, room, width int) []string {
	if payload == "" {
		return []string{th.Muted.Render("no payload: the service gave none")}
	}
	code, err := qr.Encode(payload)
	if err != nil {
		return []string{th.Danger.Render("cannot draw it: " + tab.ErrText(err))}
	}
	lines := code.Draw(qr.Options{}, tab.QRLook(th))
	if code.Height() > room {
		warn := fmt.Sprintf("The code needs %d lines and this pane shows %d: make the window %d lines taller to scan it.",
			code.Height(), room, code.Height()-room)
		var head []string
		for _, l := range ui.WrapWords(warn, width) {
			head = append(head, th.Warning.Render(l))
		}
		lines = append(head, lines...)
	}
	return lines
}

// --- actions -------------------------------------------------------------------

// mayToggle says whether s can be switched on or off now.
func (t *Stickers) mayToggle(s backend.Sticker) (bool, string) {
	if ok, why := tab.MayAct(t.src, t.deps.Journal, backend.ActionToggleSticker); !ok {
		return false, why
	}
	if tr := t.acts.On(tab.StickerRef(s.ID)); tr != nil {
		return false, tr.BusyReason()
	}
	return true, ""
}

// toggleVerb is what switching s does: "Switch off" an active sticker,
// else "Switch on".
func toggleVerb(s backend.Sticker) string {
	if s.Active() {
		return "Switch off"
	}
	return "Switch on"
}

// ActionTarget names what an action key acts on, for the preparing dialog.
func (t *Stickers) ActionTarget(act keys.Action) string {
	switch act {
	case keys.ActToggleSticker:
		if s, ok := t.target(); ok {
			return toggleVerb(s) + " sticker " + textsafe.Clean(s.ID)
		}
	case keys.ActNew:
		return "New sticker"
	}
	return ""
}

// startAction answers an action key: the form of a new sticker, or the
// sticker read again before the confirmation of its switch.
func (t *Stickers) startAction(act keys.Action, ticket int) tea.Cmd {
	if ok, why := t.Available(act); !ok {
		return tab.RefusedCmd(ticket, ui.ToastWarning, why)
	}
	switch act {
	case keys.ActNew:
		return tab.OpenCreate(ticket, tab.CreateSticker, tab.FormDefaults(t.scope, t.theme, t.now), t.keys, t.acts)
	case keys.ActToggleSticker:
		s, _ := t.target()
		src, id := t.src, s.ID
		return tab.ReadAgain(&t.prep, ticket, act, func(ctx context.Context) (backend.Sticker, error) {
			return src.GetSticker(ctx, id)
		})
	}
	return tab.RefusedCmd(ticket, ui.ToastWarning, "this tab has no such action")
}

// onReadAgain opens the confirmation of a switch on the sticker as it is
// now, or says why it cannot.
func (t *Stickers) onReadAgain(msg tab.ReadAgainMsg) tea.Cmd {
	s, _ := msg.Obj.(backend.Sticker)
	if msg.Err != nil {
		return tab.CouldNotRead(msg.Ticket, "the sticker before switching it", msg.Err)
	}
	if s.MerchantID == "" {
		s.MerchantID = t.scope.MerchantID
	}
	t.List.Upsert(s, t.now())
	if t.detail.IsOpen() && t.detail.Obj.ID == s.ID {
		t.detail.Set(s)
	}
	if ok, why := t.mayToggle(s); !ok {
		return tab.RefusedCmd(msg.Ticket, ui.ToastWarning, why)
	}
	return tab.MsgCmd(ui.OpenConfirmMsg{Ticket: msg.Ticket, Spec: t.toggleSpec(s)})
}

// toggleSpec is the confirmation of switching s on or off.
func (t *Stickers) toggleSpec(s backend.Sticker) ui.ConfirmSpec {
	c := textsafe.Clean
	verb := toggleVerb(s)
	next, effect := "Inactive", "Payers who scan it are refused until it is switched on again."
	if !s.Active() {
		next, effect = "Active", "Payers who scan it can pay again."
	}
	desc := c(s.Description)
	if desc == "" {
		desc = "no description"
	}
	lines := []string{
		"Sticker " + c(s.ID) + " · " + desc + " · merchant " + c(s.MerchantID),
		"Amount: " + stickerAmount(s),
		"Now: " + c(s.Status) + " → after: " + next,
		effect,
		"Sent through: v2 (the current interface)",
	}
	active := !s.Active()
	acts, id := t.acts, s.ID
	return ui.ConfirmSpec{
		Title:   verb + " sticker " + c(s.ID),
		Lines:   lines,
		Verb:    verb,
		Danger:  s.Active(),
		Confirm: func(money.Amount) tea.Cmd { return acts.Send(action.NewToggle(id, active, backend.V2)) },
	}
}

// shownMerchant is the merchant of sticker id as the pane or its row shows
// it; shown is false when the tab shows no such sticker.
func (t *Stickers) shownMerchant(id string) (merchant string, shown bool) {
	if t.detail.IsOpen() && t.detail.Obj.ID == id {
		return t.detail.Obj.MerchantID, true
	}
	for _, r := range t.List.Table.Rows() {
		if r.ID == id {
			return r.MerchantID, true
		}
	}
	return "", false
}

// showOutcome puts what an action over brought into the list and the
// pane; a new sticker's payload opens in the result dialog.
func (t *Stickers) showOutcome(msg tab.OutcomeMsg) tea.Cmd {
	s := msg.Out.Sticker
	if s.ID != "" && msg.Out.State == action.Done {
		// v2's answer names no merchant: a new sticker's is the one it was
		// made for; a switched one's is its row's (or the pane's). One the
		// tab no longer shows (the merchant was changed meanwhile) is not
		// put in another merchant's list.
		shown := true
		if s.MerchantID == "" {
			s.MerchantID = msg.Req.Sticker.MerchantID
		}
		if s.MerchantID == "" {
			s.MerchantID, shown = t.shownMerchant(s.ID)
		}
		if shown {
			t.List.Upsert(s, t.now())
			t.List.Own(s.ID)
		}
		if t.detail.IsOpen() && t.detail.Obj.ID == s.ID {
			t.detail.Set(s)
		}
	}
	var cmds []tea.Cmd
	if msg.Out.State == action.Done { // a create's result dialog (none for a toggle)
		cmds = append(cmds, tab.CreatedDialog(msg.Req, msg.Out, t.keys, t.theme))
	}
	if t.detail.IsOpen() && t.detail.Obj.ID == msg.Req.ObjectID {
		cmds = append(cmds, t.detail.Reload())
	}
	return tea.Batch(cmds...)
}

// TakeDialog implements ui.DialogOpener.
func (t *Stickers) TakeDialog() ui.Modal { return t.dialogs.Take() }

// stickerTone: a sticker takes payments (green) or is switched off (red,
// as its pane says).
func stickerTone(s backend.Sticker) datatable.Tone {
	if s.Active() {
		return datatable.ToneSuccess
	}
	return datatable.ToneDanger
}
