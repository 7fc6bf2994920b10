// Package approvals is the Approvals tab of paydash serve (key 6): the
// actions support people asked a supervisor to approve, live as they are
// filed and decided. A supervisor approves one (a, behind the same
// confirmation as any money action) and it is sent exactly once, under the
// idempotency key fixed when it was filed, or rejects it with a reason (x).
// Everyone else sees their own requests and hears of the answer. The
// requests themselves live in backend/approval.
package approvals

import (
	"cmp"
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/approval"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/team"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/tab"
)

// row is a request as the tab shows it, with the object it acts on as
// read again when its pane opened.
type row struct {
	approval.Request
	now []string // the object now, a fact a line; nil until read
}

// Approvals is the tab.
type Approvals struct {
	tab.ListTab[row]
	t      *tab.Team
	src    objectReader
	events <-chan approval.Event
	stop   func()
	// sending is the approval each action sent from here answers, by the
	// action's id, to settle the request when its outcome is known.
	sending map[string]string
}

// objectReader reads again what a request acts on.
type objectReader interface {
	GetPayment(ctx context.Context, id string) (backend.Payment, error)
	GetToken(ctx context.Context, id string) (backend.Token, error)
	GetSticker(ctx context.Context, id string) (backend.Sticker, error)
}

// New makes the tab; d.Team must be set (paydash serve).
func New(d tab.Deps) ui.Tab {
	a := &Approvals{t: d.Team, src: d.Backend, sending: map[string]string{}}
	a.events, a.stop = d.Team.Approvals.Subscribe()
	d.Team.OnClose(a.stop) // the news ends with the session
	cfg := datatable.Config[row]{
		ID:        func(r row) string { return r.ID },
		Columns:   columns(),
		EmptyText: "No requests for approval",
		EndText:   "— end of the requests —",
	}
	list := tab.NewPagedList(cfg, d.Keys, d.Theme, func(r row) time.Time { return r.Filed })
	list.Search = requestSearch()
	pane := tab.NewDetail(a.readObject, a.detailLines, nil)
	a.ListTab = tab.NewListTab(d, list, pane)
	a.Acts = tab.NewTracker(d, nil)
	a.PaneTitle = func(r row) string { return "Request " + shortID(r.ID) }
	// A request has no body of its own to show raw, and nothing to copy
	// but its id (y).
	listKeys := a.ListKeys("request", a.List.Refresh, nil, a.export).Without(keys.ActRaw, keys.ActCopyMore)
	a.Keys = append(listKeys, a.actionKeys()...)
	a.Hooks = tab.ListHooks[row]{Outcome: a.settle, ReadAgain: a.confirmApproval}
	a.Wire(tab.KeyRoute[row]{})
	return a
}

func columns() []datatable.Column[row] {
	return []datatable.Column[row]{
		{Key: "filed", Title: "Filed", Width: 12, Priority: 70,
			Text: func(r row) string { return tab.FmtListTime(r.Filed) },
			Less: func(a, b row) int { return a.Filed.Compare(b.Filed) }},
		{Key: "state", Title: "State", Width: 9, MaxWidth: 12, Priority: 100,
			Text: func(r row) string { return string(r.State) },
			Tone: func(r row) datatable.Tone { return stateTone(r.State) },
			Less: func(a, b row) int { return cmp.Compare(a.State, b.State) }},
		{Key: "by", Title: "Asked by", Width: 10, MaxWidth: 18, Priority: 90,
			Text: func(r row) string { return r.Requester },
			Less: func(a, b row) int { return cmp.Compare(a.Requester, b.Requester) }},
		{Key: "amount", Title: "Amount", Width: 10, MaxWidth: 18, Priority: 90, Align: lipgloss.Right,
			Text:  func(r row) string { return tab.FmtAmount(r.Action.Amount) },
			Less:  func(a, b row) int { return tab.CmpAmounts(a.Action.Amount, b.Action.Amount) },
			Group: func(r row) string { return r.Action.Amount.Currency }},
		{Key: "what", Title: "What", Width: 24, Flex: 3, Priority: 80,
			Text: func(r row) string { return action.Describe(r.Action) },
			Less: func(a, b row) int { return cmp.Compare(action.Describe(a.Action), action.Describe(b.Action)) }},
		{Key: "decider", Title: "Decided by", Width: 10, MaxWidth: 18, Priority: 40,
			Text: func(r row) string { return r.Decider },
			Less: func(a, b row) int { return cmp.Compare(a.Decider, b.Decider) }},
	}
}

func stateTone(s approval.State) datatable.Tone {
	switch s {
	case approval.Waiting:
		return datatable.ToneWarning
	case approval.Sent:
		return datatable.ToneSuccess
	case approval.Rejected, approval.Expired:
		return datatable.ToneDanger
	}
	return datatable.ToneNone
}

// ID implements ui.Tab.
func (a *Approvals) ID() ui.TabID { return ui.TabApprovals }

// Title implements ui.Tab.
func (a *Approvals) Title() string { return "Approvals" }

// Context implements ui.Tab: approve and reject are live here.
func (a *Approvals) Context() keys.Context {
	if c := a.ListTab.Context(); c == keys.ContextFilter {
		return c
	}
	return keys.ContextApprovals
}

// Init implements ui.Tab: the requests, and the news of them from now on.
func (a *Approvals) Init(s ui.Scope) tea.Cmd {
	a.Scope = s
	a.Layout()
	return tea.Batch(a.List.Start(a.load(), nil), a.next())
}

// load lists the requests this person may see: every one for a
// supervisor, their own for anyone else.
func (a *Approvals) load() tab.Loader[row] {
	store, t := a.t.Approvals, a.t
	return func() backend.Pager[row] {
		return tab.OneCall(func(context.Context) ([]row, error) {
			me, _ := t.Me()
			var rows []row
			for _, r := range store.List() {
				if me.Role == team.Supervisor || r.Requester == t.Person {
					rows = append(rows, row{Request: r})
				}
			}
			return rows, nil
		})
	}
}

// eventMsg is a change in the requests, from any session.
type eventMsg struct {
	owner uint64
	ev    approval.Event
}

// next waits for the next change of the requests.
func (a *Approvals) next() tea.Cmd {
	ch, owner := a.events, a.Owner
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return nil
		}
		return eventMsg{owner: owner, ev: ev}
	}
}

// Update implements ui.Tab.
func (a *Approvals) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	if cmd, ok := a.ListTab.Update(msg); ok {
		return a, cmd
	}
	switch msg := msg.(type) {
	case eventMsg:
		if msg.owner != a.Owner {
			return a, nil
		}
		cmd := tea.Batch(a.List.Refresh(), a.tell(msg.ev), a.next())
		if a.Pane.IsOpen() && a.Pane.Obj.ID == msg.ev.Request.ID {
			cmd = tea.Batch(cmd, a.Pane.Reload()) // the request in the pane changed
		}
		return a, cmd
	case ui.RefreshMsg:
		return a, tea.Batch(a.List.Refresh(), a.Pane.Reload())
	case claimedMsg:
		return a, a.claimed(msg)
	}
	return a, nil
}

// tell says to the person who asked what became of their request.
func (a *Approvals) tell(ev approval.Event) tea.Cmd {
	r := ev.Request
	if r.Requester != a.t.Person {
		return nil
	}
	what := action.Describe(r.Action)
	switch r.State {
	case approval.Approved:
		return tab.ToastCmd(ui.ToastInfo, r.Decider+" approved your "+what+"; it is being sent")
	case approval.Sent:
		return tab.ToastCmd(ui.ToastSuccess, "Your "+what+", approved by "+r.Decider+": "+textsafe.Line(r.Outcome, 200))
	case approval.Rejected:
		return tab.MsgCmd(ui.ErrorMsg{Err: rejected(r), Sticky: true})
	case approval.Expired:
		return tab.ToastCmd(ui.ToastWarning, "Your request to approve the "+what+" expired unanswered; nothing was sent")
	}
	return nil
}
