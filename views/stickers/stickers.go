// Package stickers is the Stickers tab: the merchant's payment stickers,
// their payload as a QR code, switching one on or off, and new ones.
package stickers

import (
	"cmp"
	"context"
	"fmt"

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
	tab.ListTab[backend.Sticker] // the list, the pane, the actions and the keys
	src                          stickerSource

	// noV2 is why the tab has nothing to show ("" when v2 is configured):
	// stickers exist only in the current interface.
	noV2 string
}

// stickerSource is what the Stickers tab asks of the backend.
type stickerSource interface {
	Can(a backend.ActionName) (bool, string)
	ListStickers(q backend.StickerQuery) backend.Pager[backend.Sticker]
	GetSticker(ctx context.Context, id string) (backend.Sticker, error)
}

// New makes the Stickers tab.
func New(d tab.Deps) ui.Tab {
	t := &Stickers{src: d.Backend, noV2: tab.NeedsV2(d.Backend, "stickers")}
	cfg := datatable.Config[backend.Sticker]{
		ID:          func(s backend.Sticker) string { return s.ID },
		Columns:     StickerColumns(func(s backend.Sticker) string { return t.Acts.RowMark(tab.StickerRef(s.ID)) }),
		LoadingText: "Loading more stickers…",
		EndText:     "— end of the list —",
		EmptyText:   "This merchant has no stickers",
	}
	list := tab.NewPagedList(cfg, d.Keys, d.Theme, nil)
	list.Search = stickerSearch()
	pane := tab.NewDetail(t.readSticker, t.detailLines, func(s backend.Sticker) []string { return tab.RawOrNote(s.Raw, t.Theme) })
	t.ListTab = tab.NewListTab(d, list, pane)
	t.PaneTitle = func(o backend.Sticker) string { return "Sticker " + textsafe.Clean(o.ID) }
	t.Acts = tab.NewTracker(d, func(ref tab.ObjectRef) {
		if ref.Kind == "sticker" {
			t.List.Table.Redraw(ref.ID)
		}
	})
	t.Keys = t.keyTable()
	t.Hooks = tab.ListHooks[backend.Sticker]{Pane: t.paneRead, Outcome: t.showOutcome, ReadAgain: t.onReadAgain}
	t.Wire(tab.KeyRoute[backend.Sticker]{})
	t.Acts.Adopt(d.Pending, backend.ActionToggleSticker, backend.ActionCreateSticker)
	return t
}

// keyTable is every key of the Stickers tab.
func (ss *Stickers) keyTable() tab.KeyTable {
	refresh := func() tea.Cmd {
		if ss.noV2 != "" {
			return nil
		}
		return ss.List.Refresh()
	}
	kt := append(ss.ListKeys("sticker", refresh, ss.copyMore, ss.export),
		tab.KeyAction{Key: keys.ActToggleSticker, When: ss.mayToggleTarget, Start: ss.startToggle, Target: ss.toggleTarget},
		tab.KeyAction{Key: keys.ActNew, Start: ss.StartCreate(tab.CreateSticker), Target: func() string { return "New sticker" },
			When: func() (bool, string) { return tab.MayAct(ss.src, ss.Deps.Journal, backend.ActionCreateSticker) }})
	// Without v2 the tab has no stickers to act on.
	return kt.Gate(func() string { return ss.noV2 }, tab.Unguarded...)
}

// Update implements ui.Tab: the shared part takes what every list tab
// handles alike; the scope and the refresh are the tab's.
func (ss *Stickers) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	if cmd, ok := ss.ListTab.Update(msg); ok {
		return ss, cmd
	}
	switch msg := msg.(type) {
	case ui.ScopeMsg:
		return ss, ss.start(msg.Scope)
	case ui.RefreshMsg:
		if ss.noV2 != "" {
			return ss, nil
		}
		return ss, tea.Batch(ss.List.Refresh(), ss.Pane.Reload())
	}
	return ss, nil
}

// paneRead puts the sticker the pane read in full into its row.
func (ss *Stickers) paneRead(read bool) tea.Cmd {
	if read {
		ss.List.Upsert(ss.Pane.Obj, ss.Deps.TimeNow())
	}
	return nil
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
func (ss *Stickers) ID() ui.TabID { return ui.TabStickers }

// Title implements ui.Tab.
func (ss *Stickers) Title() string { return "Stickers" }

// Init implements ui.Tab: the first load of the merchant's stickers, and
// the finding out of what an earlier run left without an outcome.
func (ss *Stickers) Init(s ui.Scope) tea.Cmd { return tea.Batch(ss.start(s), ss.Acts.Resume()) }

// start loads the stickers of the scope's merchant (the period does not
// apply: a sticker lasts).
func (ss *Stickers) start(s ui.Scope) tea.Cmd {
	if !ss.NewMerchant(s, ss.noV2) {
		return nil
	}
	q := backend.StickerQuery{MerchantID: s.MerchantID}
	return ss.List.Start(func() backend.Pager[backend.Sticker] { return ss.src.ListStickers(q) },
		func(st backend.Sticker) bool { return st.MerchantID == "" || st.MerchantID == q.MerchantID })
}

func (ss *Stickers) readSticker(ctx context.Context, s backend.Sticker) (backend.Sticker, error) {
	got, err := ss.src.GetSticker(ctx, s.ID)
	if err != nil {
		return s, err
	}
	if got.MerchantID == "" {
		got.MerchantID = s.MerchantID
	}
	return got, nil
}

// detailLines is the sticker, one fact a line, and its payload as a QR
// code under them.
func (ss *Stickers) detailLines() []string {
	th := ss.Theme
	d := ss.Pane
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
	for _, l := range ss.Acts.PaneLines(th, tab.StickerRef(s.ID)) {
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
func (ss *Stickers) mayToggle(s backend.Sticker) (bool, string) {
	if ok, why := tab.MayAct(ss.src, ss.Deps.Journal, backend.ActionToggleSticker); !ok {
		return false, why
	}
	if tr := ss.Acts.On(tab.StickerRef(s.ID)); tr != nil {
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

// mayToggleTarget says whether the sticker a key acts on can be switched.
func (ss *Stickers) mayToggleTarget() (bool, string) {
	s, ok := ss.Target()
	if !ok {
		return false, "no sticker is selected"
	}
	return ss.mayToggle(s)
}

// toggleTarget names the switch for the preparing dialog.
func (ss *Stickers) toggleTarget() string {
	if s, ok := ss.Target(); ok {
		return toggleVerb(s) + " sticker " + textsafe.Clean(s.ID)
	}
	return ""
}

// startToggle reads the sticker again before the confirmation of its
// switch, so that the dialog shows it as it is now.
func (ss *Stickers) startToggle(ticket int) tea.Cmd {
	s, _ := ss.Target()
	src, id := ss.src, s.ID
	return tab.ReadAgain(&ss.Prep, ticket, keys.ActToggleSticker, func(ctx context.Context) (backend.Sticker, error) {
		return src.GetSticker(ctx, id)
	})
}

// onReadAgain opens the confirmation of a switch on the sticker as it is
// now, or says why it cannot.
func (ss *Stickers) onReadAgain(msg tab.ReadAgainMsg) tea.Cmd {
	s, _ := msg.Obj.(backend.Sticker)
	if msg.Err != nil {
		return tab.CouldNotRead(msg.Ticket, "the sticker before switching it", msg.Err)
	}
	if s.MerchantID == "" {
		s.MerchantID = ss.Scope.MerchantID
	}
	ss.List.Upsert(s, ss.Deps.TimeNow())
	if ss.Pane.IsOpen() && ss.Pane.Obj.ID == s.ID {
		ss.Pane.Set(s)
	}
	if ok, why := ss.mayToggle(s); !ok {
		return tab.RefusedCmd(msg.Ticket, ui.ToastWarning, why)
	}
	return tab.MsgCmd(ui.ConfirmDialog(msg.Ticket, ss.toggleSpec(s)))
}

// toggleSpec is the confirmation of switching s on or off.
func (ss *Stickers) toggleSpec(s backend.Sticker) ui.ConfirmSpec {
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
	acts, id := ss.Acts, s.ID
	return ui.ConfirmSpec{
		Title:    verb + " sticker " + c(s.ID),
		Lines:    lines,
		Verb:     verb,
		Danger:   s.Active(),
		Confirm:  func(money.Amount) tea.Cmd { return acts.Send(action.NewToggle(id, active, backend.V2)) },
		Approval: acts.ApprovalNote(backend.ActionToggleSticker),
	}
}

// shownMerchant is the merchant of sticker id as the pane or its row shows
// it; shown is false when the tab shows no such sticker.
func (ss *Stickers) shownMerchant(id string) (merchant string, shown bool) {
	if ss.Pane.IsOpen() && ss.Pane.Obj.ID == id {
		return ss.Pane.Obj.MerchantID, true
	}
	for _, r := range ss.List.Table.Rows() {
		if r.ID == id {
			return r.MerchantID, true
		}
	}
	return "", false
}

// showOutcome puts what an action over brought into the list and the
// pane; a new sticker's payload opens in the result dialog.
func (ss *Stickers) showOutcome(msg tab.OutcomeMsg) tea.Cmd {
	s := msg.Out.Sticker
	if s.ID != "" && msg.Out.State == action.Done {
		// v2's answer names no merchant: a new sticker's is the one it was
		// made for; a switched one's is its row's (or the pane's). One the
		// tab no longer shows (the merchant was changed meanwhile) is not
		// put in another merchant's list.
		shown := true
		if s.MerchantID == "" {
			s.MerchantID = action.ParamsOf[backend.StickerRequest](msg.Req).MerchantID
		}
		if s.MerchantID == "" {
			s.MerchantID, shown = ss.shownMerchant(s.ID)
		}
		if shown {
			ss.List.Upsert(s, ss.Deps.TimeNow())
			ss.List.Own(s.ID)
		}
		if ss.Pane.IsOpen() && ss.Pane.Obj.ID == s.ID {
			ss.Pane.Set(s)
		}
	}
	var cmds []tea.Cmd
	if msg.Out.State == action.Done { // a create's result dialog (none for a toggle)
		cmds = append(cmds, tab.CreatedDialog(msg.Req, msg.Out, ss.Deps.Keys, ss.Theme))
	}
	if ss.Pane.IsOpen() && ss.Pane.Obj.ID == msg.Req.ObjectID {
		cmds = append(cmds, ss.Pane.Reload())
	}
	return tea.Batch(cmds...)
}

// stickerTone: a sticker takes payments (green) or is switched off (red,
// as its pane says).
func stickerTone(s backend.Sticker) datatable.Tone {
	if s.Active() {
		return datatable.ToneSuccess
	}
	return datatable.ToneDanger
}
