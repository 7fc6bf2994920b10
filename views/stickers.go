package views

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
)

// Stickers is the Stickers tab: the merchant's payment stickers (v2 lists
// them by merchant, with no period), a detail pane with the payload drawn
// as a QR code a phone can read from the screen, switching a sticker on or
// off (t) and making a new one (n), each behind a confirmation.
type Stickers struct {
	src   stickerSource
	deps  Deps
	keys  keys.Map
	theme ui.Theme
	now   func() time.Time
	owner uint64
	acts  *tracker
	prep  preparation // the read before an action's confirmation

	// noV2 is why the tab has nothing to show ("" when v2 is configured):
	// stickers exist only in the current interface.
	noV2 string

	list   *pagedList[backend.Sticker]
	detail *detail[backend.Sticker]
	route  keyRoute[backend.Sticker] // the keys every list tab handles alike
	scope  ui.Scope
	w, h   int

	// dialogs holds the dialog a key opens, for the shell to open at once
	// (ui.DialogOpener).
	dialogs dialogSlot
}

// stickerSource is what the Stickers tab asks of the backend.
type stickerSource interface {
	Can(a backend.ActionName) (bool, string)
	ListStickers(q backend.StickerQuery) backend.Pager[backend.Sticker]
	GetSticker(ctx context.Context, id string) (backend.Sticker, error)
}

// NewStickers makes the Stickers tab.
func NewStickers(d Deps) ui.Tab {
	t := &Stickers{src: d.Backend, deps: d, keys: d.Keys, theme: d.Theme, now: d.timeNow, owner: newOwner(),
		noV2: needsV2(d.Backend, "stickers")}
	t.acts = newTracker(t.owner, d, func(ref objectRef) {
		if ref.kind == "sticker" && t.list != nil {
			t.list.table.Redraw(ref.id)
		}
	})
	cfg := datatable.Config[backend.Sticker]{
		ID:          func(s backend.Sticker) string { return s.ID },
		Columns:     stickerColumns(func(s backend.Sticker) string { return t.acts.rowMark(stickerRef(s.ID)) }),
		LoadingText: "Loading more stickers…",
		EndText:     "— end of the list —",
		EmptyText:   "This merchant has no stickers",
	}
	t.list = newPagedList(cfg, d.Keys, d.Theme, nil)
	t.list.search = stickerSearch()
	t.list.dialogs = &t.dialogs
	t.detail = newDetail(t.readSticker, t.detailLines, func(s backend.Sticker) []string { return rawOrNote(s.Raw, t.theme) })
	t.route = keyRoute[backend.Sticker]{km: t.keys, list: t.list, pane: t.detail, context: t.Context, available: t.Available}
	t.acts.adopt(d.Pending, backend.ActionToggleSticker, backend.ActionCreateSticker)
	return t
}

// stickerColumns are the list's columns; rowMark (nil: none) overrides the
// status while an action is under way on a sticker.
func stickerColumns(rowMark func(backend.Sticker) string) []datatable.Column[backend.Sticker] {
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
			Less: func(a, b backend.Sticker) int { return cmpIDs(a.ID, b.ID) }},
		{Key: "status", Title: "Status", Width: 12, Priority: 90,
			Text: status,
			Tone: func(s backend.Sticker) datatable.Tone {
				if rowMark != nil {
					return markedTone(rowMark(s), stickerTone(s))
				}
				return stickerTone(s)
			},
			Less: func(a, b backend.Sticker) int { return cmp.Compare(a.Status, b.Status) }},
		{Key: "amount", Title: "Amount", Width: 10, MaxWidth: 18, Priority: 70, Align: lipgloss.Right,
			Text:  func(s backend.Sticker) string { return stickerAmount(s) },
			Less:  func(a, b backend.Sticker) int { return cmpAmounts(a.Amount, b.Amount) },
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
	return fmtAmount(s.Amount)
}

// ID implements ui.Tab.
func (t *Stickers) ID() ui.TabID { return ui.TabStickers }

// Title implements ui.Tab.
func (t *Stickers) Title() string { return "Stickers" }

// Init implements ui.Tab: the first load of the merchant's stickers, and
// the finding out of what an earlier run left without an outcome.
func (t *Stickers) Init(s ui.Scope) tea.Cmd { return tea.Batch(t.start(s), t.acts.resume()) }

// start loads the stickers of the scope's merchant (the period does not
// apply: a sticker lasts).
func (t *Stickers) start(s ui.Scope) tea.Cmd {
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
	t.layout()
	q := backend.StickerQuery{MerchantID: s.MerchantID}
	return t.list.start(func() backend.Pager[backend.Sticker] { return t.src.ListStickers(q) },
		func(st backend.Sticker) bool { return st.MerchantID == "" || st.MerchantID == q.MerchantID })
}

// Context implements ui.Tab.
func (t *Stickers) Context() keys.Context { return listContext(t.list.filtering, t.detail.isOpen()) }

// Status implements ui.Tab.
func (t *Stickers) Status() ui.TabStatus {
	st := t.list.status()
	t.acts.counts(&st)
	st.Loading = st.Loading || t.detail.loading || st.Sending > 0
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
			return exportable(t.list)
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
		return mayAct(t.src, t.deps.Journal, backend.ActionCreateSticker)
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
	if t.detail.isOpen() {
		return t.detail.obj, true
	}
	return t.list.selected()
}

// Update implements ui.Tab: each message to the part it is for.
func (t *Stickers) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	if cmd, _, ok := t.list.update(msg, t.now()); ok {
		t.layout() // the bottom line comes or goes with the "↑ new" mark
		return t, cmd
	}
	if loaded, ok := t.detail.update(msg); ok {
		if loaded {
			t.list.upsert(t.detail.obj, t.now())
		}
		return t, nil
	}
	if cmd, over, ok := t.acts.update(msg); ok {
		if over != nil {
			cmd = tea.Batch(cmd, t.showOutcome(*over))
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
	case ui.SizeMsg:
		t.w, t.h = msg.Width, msg.Height
		t.layout()
	case ui.ThemeMsg:
		t.theme = msg.Theme
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

func (t *Stickers) layout() { arrange(t.list, t.detail, t.w, t.h) }

func (t *Stickers) key(msg tea.KeyPressMsg) tea.Cmd {
	a, cmd, handled := t.route.handle(msg)
	if handled {
		return cmd
	}
	if a == keys.ActCopyMore {
		return t.copyMore()
	}
	if a == keys.ActRefresh && t.noV2 == "" {
		return t.list.refresh()
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
	if t.detail.isOpen() {
		pane = t.detail.lines(t.theme, "Sticker "+textsafe.Clean(t.detail.obj.ID))
	}
	return frame(t.theme, t.list, pane, w, h)
}

// detailLines is the sticker, one fact a line, and its payload as a QR
// code under them.
func (t *Stickers) detailLines() []string {
	th := t.theme
	d := t.detail
	s := d.obj
	c := textsafe.Clean
	f := &fields{theme: th, labelW: 16, width: d.inner()} // the payload wraps, whole
	if d.loading && len(s.Raw) == 0 {
		f.line(th.Muted.Render("reading the full sticker…"))
	}
	if d.err != nil {
		f.failure("", d.err)
	}
	st := th.Danger
	if s.Active() {
		st = th.Success
	}
	for _, l := range t.acts.paneLines(th, stickerRef(s.ID)) {
		f.line(l)
	}
	f.addAlways("Status", st.Render(stickerStatusText(s)))
	f.add("Description", c(s.Description))
	f.add("Amount", stickerAmount(s))
	f.add("Type", c(s.StickerType))
	f.add("Cash link", yesNo(s.Cashlink))
	f.add("Product code", c(s.ProductCode))
	f.add("Purpose", c(s.PaymentPurpose))
	f.add("Merchant", c(s.MerchantID))
	f.add("Payload", c(s.Payload))
	f.heading("QR code")
	f.lines = append(f.lines, qrLines(th, s.Payload, paneBody(d.h), d.inner())...)
	return f.lines
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
		return []string{th.Danger.Render("cannot draw it: " + errText(err))}
	}
	lines := code.Draw(qr.Options{}, qrLook(th))
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
	if ok, why := mayAct(t.src, t.deps.Journal, backend.ActionToggleSticker); !ok {
		return false, why
	}
	if tr := t.acts.on(stickerRef(s.ID)); tr != nil {
		return false, tr.busyReason()
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
		return refusedCmd(ticket, ui.ToastWarning, why)
	}
	switch act {
	case keys.ActNew:
		return openCreate(ticket, createSticker, formDefaults(t.scope, t.theme, t.now), t.keys, t.acts)
	case keys.ActToggleSticker:
		s, _ := t.target()
		src, id := t.src, s.ID
		return readAgain(&t.prep, ticket, act, func(ctx context.Context) (backend.Sticker, error) {
			return src.GetSticker(ctx, id)
		})
	}
	return refusedCmd(ticket, ui.ToastWarning, "this tab has no such action")
}

// onReadAgain opens the confirmation of a switch on the sticker as it is
// now, or says why it cannot.
func (t *Stickers) onReadAgain(msg readAgainMsg) tea.Cmd {
	s, _ := msg.obj.(backend.Sticker)
	if msg.err != nil {
		return couldNotRead(msg.ticket, "the sticker before switching it", msg.err)
	}
	if s.MerchantID == "" {
		s.MerchantID = t.scope.MerchantID
	}
	t.list.upsert(s, t.now())
	if t.detail.isOpen() && t.detail.obj.ID == s.ID {
		t.detail.set(s)
	}
	if ok, why := t.mayToggle(s); !ok {
		return refusedCmd(msg.ticket, ui.ToastWarning, why)
	}
	return msgCmd(ui.OpenConfirmMsg{Ticket: msg.ticket, Spec: t.toggleSpec(s)})
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
		Confirm: func(money.Amount) tea.Cmd { return acts.send(action.NewToggle(id, active, backend.V2)) },
	}
}

// shownMerchant is the merchant of sticker id as the pane or its row shows
// it; shown is false when the tab shows no such sticker.
func (t *Stickers) shownMerchant(id string) (merchant string, shown bool) {
	if t.detail.isOpen() && t.detail.obj.ID == id {
		return t.detail.obj.MerchantID, true
	}
	for _, r := range t.list.table.Rows() {
		if r.ID == id {
			return r.MerchantID, true
		}
	}
	return "", false
}

// showOutcome puts what an action over brought into the list and the
// pane; a new sticker's payload opens in the result dialog.
func (t *Stickers) showOutcome(msg outcomeMsg) tea.Cmd {
	s := msg.out.Sticker
	if s.ID != "" && msg.out.State == action.Done {
		// v2's answer names no merchant: a new sticker's is the one it was
		// made for; a switched one's is its row's (or the pane's). One the
		// tab no longer shows (the merchant was changed meanwhile) is not
		// put in another merchant's list.
		shown := true
		if s.MerchantID == "" {
			s.MerchantID = msg.req.Sticker.MerchantID
		}
		if s.MerchantID == "" {
			s.MerchantID, shown = t.shownMerchant(s.ID)
		}
		if shown {
			t.list.upsert(s, t.now())
			t.list.own(s.ID)
		}
		if t.detail.isOpen() && t.detail.obj.ID == s.ID {
			t.detail.set(s)
		}
	}
	var cmds []tea.Cmd
	if msg.out.State == action.Done { // a create's result dialog (none for a toggle)
		cmds = append(cmds, createdDialog(msg.req, msg.out, t.keys, t.theme))
	}
	if t.detail.isOpen() && t.detail.obj.ID == msg.req.ObjectID {
		cmds = append(cmds, t.detail.reload())
	}
	return tea.Batch(cmds...)
}
