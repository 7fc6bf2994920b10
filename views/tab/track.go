package tab

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/money"
	"paydash/ui"
)

// An action's path from its key to its outcome in every tab: docs/architecture.md.

// tracked is an action not yet over.
type tracked struct {
	req   action.Request
	state trackState
	why   string // unknown: why (the lost answer, the failed check)
	tries int    // checks made
	// fromStart: left by an earlier run; its outcome goes to the notice.
	fromStart bool
}

type trackState int

const (
	stateSending  trackState = iota // sent, the answer awaited
	stateChecking                   // the answer was lost: being found out
	stateStuck                      // cannot be found out automatically: the user must look
)

// CheckAfter is how long to wait before the check number tries+1 of an
// unknown outcome: the first after two seconds (a lost answer is usually
// a blip, and a request still on its way should have landed by then),
// then doubling up to a minute while the service cannot say. Deps.CheckAfter
// replaces it (tests need not wait).
func CheckAfter(tries int) time.Duration {
	return min(2*time.Second<<min(tries, 5), time.Minute)
}

// Messages of the tracker.
type (
	// OutcomeMsg is what became of an action: its answer, or a check.
	OutcomeMsg struct {
		stamp Stamp // the tracker's that sent it (Reader.Owns)
		Req   action.Request
		Out   action.Outcome
	}
	// checkDueMsg: time to find out an unknown outcome again.
	checkDueMsg struct {
		stamp Stamp  // the tracker's
		id    string // the action's id
	}
)

// ObjectRef names what an action acts on: a payment, a token or a sticker
// (ids of different kinds may look alike). A create has none.
type ObjectRef struct {
	Kind string
	ID   string
}

func PaymentRef(id string) ObjectRef { return ObjectRef{action.ObjectPayment, id} }
func TokenRef(id string) ObjectRef   { return ObjectRef{action.ObjectToken, id} }
func StickerRef(id string) ObjectRef { return ObjectRef{action.ObjectSticker, id} }

// refOf is the object an action acts on (its kind's Locks); ok is false
// for a create.
func refOf(req action.Request) (ObjectRef, bool) {
	ref, ok := action.KindOf(req.Kind).Locks(req)
	return ObjectRef{ref.Type, ref.ID}, ok
}

// InFlight is the actions not yet over in all the tabs built from one
// Deps, by the object they act on: a token being revoked from a payment's
// pane cannot be revoked again from the Tokens tab meanwhile. It is only
// touched from the tabs' Update (the program's event loop).
type InFlight struct {
	ByObject map[ObjectRef]*tracked
	trackers []*Tracker // every sharing tab's, for Open
	// redraws are every sharing tab's: when an action starts or ends on an
	// object, each tab draws its rows of it again (a token revoked from a
	// payment's pane shows "→ revoking" in the Tokens tab too).
	redraws []func(ObjectRef)
}

// NewInFlight makes the register the tabs share (Deps.InFlight).
func NewInFlight() *InFlight { return &InFlight{ByObject: map[ObjectRef]*tracked{}} }

// changed tells every sharing tab that ref's action started or ended.
func (f *InFlight) changed(ref ObjectRef) {
	for _, redraw := range f.redraws {
		redraw(ref)
	}
}

// Tracker sends one tab's actions and follows each until its outcome is
// known.
type Tracker struct {
	// answers stamps the tracker's answers, so that they reach the tab
	// that sent the action (an action's answer is never stale: only
	// Reader.Owns is asked).
	answers    Reader
	run        *action.Runner
	flights    *InFlight
	Mine       map[string]*tracked           // this tab's, by action id
	CheckAfter func(tries int) time.Duration // Deps.CheckAfter, or the package's CheckAfter
	team       *Team                         // Deps.Team: nil but under paydash serve
}

// NewTracker makes a tab's tracker on the shared register; redraw draws
// the tab's rows of an object again when an action on it starts or ends,
// whichever tab sent it (nil: the tab has no such rows).
func NewTracker(d Deps, redraw func(ObjectRef)) *Tracker {
	flights := d.InFlight
	if flights == nil {
		flights = NewInFlight()
	}
	if redraw != nil {
		flights.redraws = append(flights.redraws, redraw)
	}
	wait := d.CheckAfter
	if wait == nil {
		wait = CheckAfter
	}
	k := &Tracker{run: &action.Runner{Backend: d.Backend, Journal: d.Journal, Now: d.Now, Debug: d.DebugLog},
		flights: flights, Mine: map[string]*tracked{}, CheckAfter: wait, team: d.Team}
	flights.trackers = append(flights.trackers, k)
	return k
}

// Open says, one line each, oldest first, the actions of every sharing
// tab whose outcome is not known: being sent, being found out, or beyond
// finding out automatically. main prints them once the dashboard has
// stopped, so that quitting with an outcome in doubt is never silent:
//
//	1 refund of 260.00 RUB for payment 43019998 — outcome unknown; it is checked at the next start
//
// It reads the tabs' state: call it only once the program has stopped
// (no Update runs any more).
func (f *InFlight) Open() []string {
	var open []*tracked
	for _, k := range f.trackers {
		for _, tr := range k.Mine {
			open = append(open, tr)
		}
	}
	slices.SortFunc(open, func(a, b *tracked) int { return a.req.Sent.Compare(b.req.Sent) })
	lines := make([]string, 0, len(open))
	for _, tr := range open {
		line := "1 " + action.Describe(tr.req) + " — outcome unknown"
		if tr.state == stateStuck {
			line += " (" + tr.why + "); it is tried again at the next start; if it cannot be found out then, check " +
				action.Where(tr.req.Kind) + " by hand"
		} else {
			line += "; it is checked at the next start"
		}
		lines = append(lines, line)
	}
	return lines
}

// On is the action not yet over on an object, from any tab; nil when none.
func (tk *Tracker) On(ref ObjectRef) *tracked { return tk.flights.ByObject[ref] }

// Counts adds this tab's actions to its status: sent and awaiting their
// answer, or being found out.
func (tk *Tracker) Counts(st *ui.TabStatus) {
	for _, tr := range tk.Mine {
		if tr.state == stateSending {
			st.Sending++
		} else {
			st.Checking++
		}
	}
}

// Send journals and sends req, unless another action is under way on its
// object. The shell calls a dialog's Confirm once, from its Update (the
// program's event loop, like the tabs' Update), so the mark is set before
// any other key can act.
func (tk *Tracker) Send(req action.Request) tea.Cmd {
	if tk.team != nil {
		var (
			cmd tea.Cmd
			ok  bool
		)
		if req, cmd, ok = tk.team.gate(req); !ok {
			return cmd
		}
	}
	ref, acts := refOf(req)
	if acts {
		if tr := tk.On(ref); tr != nil {
			return ToastCmd(ui.ToastWarning, "Not sent: "+tr.BusyReason())
		}
	}
	if tr, dup := tk.Mine[req.ID]; dup { // the same confirmation twice (a create has no object to be busy)
		return ToastCmd(ui.ToastWarning, "Not sent again: "+tr.BusyReason())
	}
	if acts && tk.team != nil { // another person's session may be acting on it
		if ok, why := tk.team.claim(ref); !ok {
			return ToastCmd(ui.ToastWarning, "Not sent: "+why)
		}
	}
	tk.track(&tracked{req: req, state: stateSending})
	stamp, run := tk.answers.Stamp(), tk.run
	return func() tea.Msg {
		sent, out := run.Send(context.Background(), req)
		return OutcomeMsg{stamp: stamp, Req: sent, Out: out}
	}
}

// ApprovalNote is a confirmation's Approval for an action of kind: nil
// but under paydash serve.
func (tk *Tracker) ApprovalNote(kind backend.ActionName) func(money.Amount) string {
	if tk == nil || tk.team == nil {
		return nil
	}
	return tk.team.ApprovalNote(kind)
}

func (tk *Tracker) track(tr *tracked) {
	tk.Mine[tr.req.ID] = tr
	if ref, ok := refOf(tr.req); ok {
		tk.flights.ByObject[ref] = tr
		tk.flights.changed(ref)
	}
}

func (tk *Tracker) Untrack(req action.Request) {
	delete(tk.Mine, req.ID)
	if ref, ok := refOf(req); ok {
		if tk.team != nil {
			tk.team.release(ref)
		}
		if tk.flights.ByObject[ref] != nil && tk.flights.ByObject[ref].req.ID == req.ID {
			delete(tk.flights.ByObject, ref)
		}
		tk.flights.changed(ref)
	}
}

// checkCmd finds out what became of an action whose answer was lost.
func (tk *Tracker) checkCmd(req action.Request) tea.Cmd {
	stamp, run := tk.answers.Stamp(), tk.run
	return func() tea.Msg {
		return OutcomeMsg{stamp: stamp, Req: req, Out: run.Check(context.Background(), req)}
	}
}

// Update takes the tracker's own messages (ok). over is an outcome that is
// now final (done or not done), for the tab to show what it changed.
func (tk *Tracker) Update(msg tea.Msg) (cmd tea.Cmd, over *OutcomeMsg, ok bool) {
	switch msg := msg.(type) {
	case OutcomeMsg:
		if !tk.answers.Owns(msg.stamp) {
			return nil, nil, false
		}
		cmd, final := tk.onOutcome(msg)
		if final {
			return cmd, &msg, true
		}
		return cmd, nil, true
	case checkDueMsg:
		if !tk.answers.Owns(msg.stamp) {
			return nil, nil, false
		}
		tr, found := tk.Mine[msg.id]
		if !found || tr.state != stateChecking {
			return nil, nil, true
		}
		tr.tries++
		return tk.checkCmd(tr.req), nil, true
	}
	return nil, nil, false
}

// onOutcome shows what became of an action, in the toast, the error line,
// the row, the pane and (for one of an earlier run) the notice. final says
// the action is over.
func (tk *Tracker) onOutcome(msg OutcomeMsg) (tea.Cmd, bool) {
	tr, ok := tk.Mine[msg.Req.ID]
	if !ok {
		return nil, false
	}
	tr.req = msg.Req
	out := msg.Out
	text := out.Text(msg.Req)
	if out.JournalErr != nil {
		text += " (the journal could not record it: " + ErrText(out.JournalErr) + ")"
	}
	var cmds []tea.Cmd
	switch out.State {
	case action.Unknown:
		wasSending := tr.state == stateSending
		tr.state, tr.why = stateChecking, reasonOf(out.Err)
		if !out.Retry {
			tr.state = stateStuck
		}
		if ref, ok := refOf(msg.Req); ok {
			tk.flights.changed(ref)
		}
		switch {
		case tr.fromStart:
			cmds = append(cmds, tk.noticeCmd(tr, ui.ToastWarning, text))
		case wasSending || tr.state == stateStuck:
			cmds = append(cmds, ToastCmd(ui.ToastWarning, text))
		}
		if tr.state == stateStuck {
			cmds = append(cmds, MsgCmd(ui.ErrorMsg{Err: errors.New(text), Sticky: true,
				Hint: "look at " + action.Where(msg.Req.Kind) + " in the merchant portal; paydash will not send it again"}))
		} else {
			stamp, id := tk.answers.Stamp(), tr.req.ID
			cmds = append(cmds, tea.Tick(tk.CheckAfter(tr.tries), func(time.Time) tea.Msg { return checkDueMsg{stamp: stamp, id: id} }))
		}
		return tea.Batch(cmds...), false
	case action.Done:
		tk.Untrack(msg.Req)
		level := ui.ToastSuccess
		if out.JournalErr != nil {
			level = ui.ToastWarning
		}
		cmds = append(cmds, ToastCmd(level, text))
	case action.NotDone:
		tk.Untrack(msg.Req)
		if !tr.fromStart { // one of the last run is news for the notice, not this session's failure
			cmds = append(cmds, MsgCmd(ui.ErrorMsg{Err: errors.New(text), Hint: HintOf(out.Err), Sticky: true}))
		}
	}
	if tr.fromStart {
		level := ui.ToastSuccess
		if out.State == action.NotDone {
			level = ui.ToastInfo
		}
		cmds = append(cmds, tk.noticeCmd(tr, level, text))
	}
	return tea.Batch(cmds...), true
}

func reasonOf(err error) string {
	if err == nil {
		return "no answer"
	}
	return backend.Reason(err)
}

// BusyReason is why no other action may be sent on the object now.
func (tr *tracked) BusyReason() string {
	what := action.Describe(tr.req)
	switch tr.state {
	case stateSending:
		return "the " + what + " is being sent; wait for its answer"
	case stateChecking:
		return "the outcome of the " + what + " (sent " + fmtClock(tr.req.Sent) +
			") is not known yet; paydash is finding it out with the service"
	}
	return "the outcome of the " + what + " (sent " + fmtClock(tr.req.Sent) + ") could not be found out: " +
		tr.why + "; check " + action.Where(tr.req.Kind) + " by hand, then restart paydash"
}

func fmtClock(t time.Time) string {
	if t.IsZero() {
		return "earlier"
	}
	if t.Local().YearDay() != time.Now().Local().YearDay() {
		return t.Local().Format("02 Jan 15:04:05")
	}
	return t.Local().Format("15:04:05")
}

// RowMark is what a row's status column shows while an action is under
// way on its object ("→ refunding", "? checking"); "" when none is.
func (tk *Tracker) RowMark(ref ObjectRef) string {
	tr := tk.On(ref)
	switch {
	case tr == nil:
		return ""
	case tr.state == stateSending:
		// What a row shows instead of its status while an action is sent
		// on it ("refunding").
		if w := action.KindOf(tr.req.Kind).Doing(); w != "" {
			return "→ " + w
		}
		return "→ sending"
	case tr.state == stateChecking:
		return "? checking"
	}
	return "? unknown"
}

// PaneLines say, at the top of a detail pane, what is under way on its
// object: short lines, since the pane may be narrow.
func (tk *Tracker) PaneLines(th ui.Theme, ref ObjectRef) []string {
	tr := tk.On(ref)
	if tr == nil {
		return nil
	}
	what := action.Describe(tr.req)
	what = strings.ToUpper(what[:1]) + what[1:]
	st := th.Warning
	var lines []string
	switch tr.state {
	case stateSending:
		lines = []string{"→ " + what, "  being sent, the answer awaited"}
	case stateChecking:
		lines = []string{"? " + what, "  outcome unknown: finding it out", "  (" + tr.why + ")"}
	default:
		st = th.Danger
		lines = []string{"✗ " + what, "  outcome unknown: " + tr.why, "  check " + action.Where(tr.req.Kind) + " by hand"}
	}
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return lines
}

// --- actions of an earlier run ---------------------------------------------

// NoticeTitle heads the notice of the actions found without an outcome.
const NoticeTitle = "Actions left without an outcome when paydash last stopped"

func (tk *Tracker) noticeCmd(tr *tracked, level ui.ToastLevel, text string) tea.Cmd {
	return MsgCmd(ui.NoticeDialog(ui.Notice{Title: NoticeTitle, ID: tr.req.ID, Level: level, Text: text}))
}

// Adopt takes the actions of the given kinds an earlier run left without
// an outcome: each blocks its object from the start until it is found out
// (resume).
func (tk *Tracker) Adopt(pending []action.Request, kinds ...backend.ActionName) {
	for _, req := range pending {
		if slices.Contains(kinds, req.Kind) {
			tk.track(&tracked{req: req, state: stateChecking, fromStart: true})
		}
	}
}

// Resume starts finding out what became of the actions of an earlier run,
// with a notice that lists them.
func (tk *Tracker) Resume() tea.Cmd {
	var open []*tracked
	for _, tr := range tk.Mine {
		if tr.fromStart && tr.tries == 0 {
			open = append(open, tr)
		}
	}
	slices.SortFunc(open, func(a, b *tracked) int { return a.req.Sent.Compare(b.req.Sent) })
	var cmds []tea.Cmd
	for _, tr := range open {
		tr.tries++
		req := tr.req
		text := strings.ToUpper(action.Describe(req)[:1]) + action.Describe(req)[1:] +
			", sent " + fmtClock(req.Sent) + " through " + string(req.Interface) + ": finding out what became of it…"
		cmds = append(cmds, tk.noticeCmd(tr, ui.ToastInfo, text), tk.checkCmd(req))
	}
	return tea.Batch(cmds...)
}

// Abandon journals the actions still awaiting their answer as abandoned:
// paydash is stopping without it (the next start finds out).
func (tk *Tracker) Abandon() tea.Cmd {
	var reqs []action.Request
	for _, tr := range tk.Mine {
		if tr.state == stateSending {
			reqs = append(reqs, tr.req)
		}
	}
	if len(reqs) == 0 {
		return nil
	}
	run := tk.run
	return func() tea.Msg {
		for _, req := range reqs {
			_ = run.Abandon(req, "paydash stopped before the answer came")
		}
		return nil
	}
}
