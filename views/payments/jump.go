package payments

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/tab"
)

// Jump (":") finds a payment by id or by order number whatever its period.
// By id the service reads it at once. By order number
// the loaded rows answer first; then the service's own lookup where v1 is
// configured (getPaymentByInvoiceID), else a search back through the last
// jumpBackDays days, window by window, newest first, one page a command,
// so that the status bar shows how far it got and esc, another jump or a
// scope change stops it. A payment outside the scope widens it (another
// merchant's switches to that merchant): the tab asks the shell for the
// wider scope and opens the payment when that ScopeMsg comes back. What
// is not found says where it was looked for, and stays until dismissed or
// until a later jump finds its payment.

const (
	jumpBackDays   = 90 // how far back a search by order number goes
	jumpWindowDays = 7  // the span of one window of that search
)

// jumpDay is a UTC day: the search and the widening go by whole days.
const jumpDay = 24 * time.Hour

// jumpState is the Payments tab's search for a payment.
type jumpState struct {
	// reads is the search's: a new one and a stop abandon the one under
	// way, and its answers are dropped.
	reads    tab.Reader
	active   bool // a search is under way
	query    string
	progress string // how far the search got, for the status bar
	// widen is a payment found outside the scope, waiting for the ScopeMsg
	// that shows it; nil when none.
	widen *jumpWiden
	// selectID is the payment opened after a widening: its row is
	// selected when its page loads ("" when none).
	selectID string
}

// jumpWiden is a payment waiting for its scope.
type jumpWiden struct {
	scope ui.Scope
	p     backend.Payment
}

// jumpProgressMsg is a step of a search: how far it got, and the command
// that goes on.
type jumpProgressMsg struct {
	stamp    tab.Stamp // the search's
	progress string
	next     tea.Cmd
}

// jumpResultMsg is the end of a search for a payment: found, failed, or
// not found (notFound says where it was looked for).
type jumpResultMsg struct {
	stamp    tab.Stamp // the search's
	query    string
	p        backend.Payment
	found    bool
	err      error
	notFound string
	hint     string
}

// orderFinder is the service's lookup by order number (backend.Backend).
type orderFinder interface {
	FindPaymentByOrderNo(ctx context.Context, merchantID, orderNo string) (backend.Payment, bool, error)
}

// noteOrders remembers the loaded rows' order numbers, and selects the
// payment a jump opened once its row comes: the list reads on until it
// does (the payment lies in the period), so that closing the pane leaves
// the found payment selected, not the row that happened to be, and the
// keys typed next act on it.
func (ps *Payments) noteOrders(rows []backend.Payment) tea.Cmd {
	for _, p := range rows {
		if p.OrderNo == "" {
			continue
		}
		k := strings.ToLower(p.OrderNo)
		if id, ok := ps.orders[k]; !ok || tab.CmpIDs(p.ID, id) > 0 {
			ps.orders[k] = p.ID
		}
	}
	id := ps.jump.selectID
	if id == "" {
		return nil
	}
	if !ps.Pane.IsOpen() || ps.Pane.Obj.ID != id {
		ps.jump.selectID = "" // the user moved on
		return nil
	}
	for _, p := range rows {
		if p.ID == id {
			ps.List.SelectID(id)
			ps.jump.selectID = ""
			return nil
		}
	}
	if ps.List.Done {
		ps.jump.selectID = "" // not in this list (a search the service narrowed)
		return nil
	}
	return ps.List.Next()
}

// stopJump abandons a search for a payment under way, and a payment
// waiting for its scope.
func (ps *Payments) stopJump() {
	ps.jump.reads.Stop()
	ps.jump.active = false
	ps.jump.progress = ""
	ps.jump.widen = nil
	ps.jump.selectID = ""
}

// escJump is esc during a search: it stops it (KeyRoute.Stop).
func (ps *Payments) escJump() (tea.Cmd, bool) {
	if !ps.jump.active {
		return nil, false
	}
	q := textsafe.Line(ps.jump.query, 60)
	ps.stopJump()
	return tab.ToastCmd(ui.ToastInfo, "Stopped looking for "+q), true
}

// startJump finds a payment by id (all digits) or by order number. A loaded
// row with that order number opens at once; anything else is a search,
// a chain of commands (jumpSearch).
func (ps *Payments) startJump(query string) tea.Cmd {
	q := strings.TrimSpace(query)
	if q == "" {
		return nil
	}
	ps.stopJump()
	localID := ps.orders[strings.ToLower(q)]
	if !tab.IsDigits(q) && localID != "" {
		if sel, ok := ps.List.SelectID(localID); ok {
			return tea.Batch(ps.openDetail(sel, false), clearJumpError)
		}
	}
	ctx, st := ps.jump.reads.Start(ps.List.Context())
	ps.jump.active, ps.jump.query = true, q
	// esc reaches the tab through its KeyRoute: there it stops the search.
	ps.Route.Stop = ps.escJump
	s := &jumpSearch{
		stamp: st, ctx: ctx, src: ps.src, finder: ps.Deps.Backend,
		query: q, merchant: ps.Scope.MerchantID, byID: tab.IsDigits(q), localID: localID,
	}
	mk, pk := keys.Label(ps.Deps.Keys.Global.Merchant.Keys()), keys.Label(ps.Deps.Keys.Global.Period.Keys())
	s.hintOther = "it may be another merchant's: " + mk + " switches the merchant"
	s.hintOlder = "it may be older, or another merchant's: search by its id, or choose the merchant (" + mk +
		") or a period (" + pk + ") that holds it"
	// From today, or from the period's end when that is later: a rolling
	// period ends at the service's now, which a clock here may be behind.
	from := ps.Deps.TimeNow()
	if ps.Scope.End.After(from) {
		from = ps.Scope.End
	}
	s.top = jumpDayStart(from).Add(jumpDay)
	s.bottom = s.top.AddDate(0, 0, -jumpBackDays)
	s.reached = s.top
	// The scope's period needs no second look when all of it is loaded
	// and no loaded row has the number.
	var skip *ui.Scope
	if ps.List.Done && localID == "" {
		skip = &ps.Scope
	}
	s.spans = jumpSpans(s.top, s.bottom, skip)
	ps.jump.progress = "looking for " + textsafe.Line(q, 40) + "…"
	return s.begin
}

// onJumpProgress shows how far a search got and lets it go on.
func (ps *Payments) onJumpProgress(msg jumpProgressMsg) tea.Cmd {
	if !ps.jump.reads.Fresh(msg.stamp) || !ps.jump.active {
		return nil
	}
	ps.jump.progress = msg.progress
	return msg.next
}

// onJump ends a search: the payment opens (the scope widened to show it
// first, when it lies outside), or a failure or "not found" is said.
func (ps *Payments) onJump(msg jumpResultMsg) tea.Cmd {
	if !ps.jump.reads.Fresh(msg.stamp) || !ps.jump.active {
		return nil
	}
	ps.jump.active = false
	ps.jump.progress = ""
	ps.jump.reads.Stop()
	q := textsafe.Line(msg.query, 60)
	switch {
	case msg.err != nil && tab.Cancelled(msg.err):
		return nil
	case msg.err != nil:
		text := "Could not look for " + q + ": " + tab.ErrText(msg.err)
		if h := tab.HintOf(msg.err); h != "" {
			text += " — " + h
		}
		return tab.ToastCmd(ui.ToastError, text)
	case !msg.found:
		e := ui.ErrorMsg{Err: errors.New(msg.notFound), Hint: msg.hint, Sticky: true, Key: jumpErrorKey}
		return tab.MsgCmd(e)
	}
	return tea.Batch(ps.showFound(msg.p), clearJumpError)
}

// jumpErrorKey marks the error of a jump that found nothing: the next jump
// that finds its payment clears it (what it said no longer holds, and an
// error left on screen would be dismissed with esc, which closes the pane
// the jump opened).
const jumpErrorKey = "jump"

func clearJumpError() tea.Msg { return ui.ClearErrorMsg{Key: jumpErrorKey} }

// showFound opens a found payment: at once when the scope shows it, else
// after asking the shell for a scope that does.
func (ps *Payments) showFound(p backend.Payment) tea.Cmd {
	if tab.InScope(ps.Scope, p.MerchantID, tab.PaymentTime(p)) {
		sel, ok := ps.List.SelectID(p.ID)
		switch {
		case ok && !p.Detailed:
			return ps.openDetail(sel, false)
		case ok:
			return ps.openDetail(p, false)
		}
		// Not loaded yet: selected when its page comes (noteOrders).
		cmd := ps.openDetail(p, false)
		ps.jump.selectID = p.ID
		return tea.Batch(cmd, ps.List.Next())
	}
	s := widenScope(ps.Scope, p)
	ps.jump.widen = &jumpWiden{scope: s, p: p}
	id := textsafe.Line(p.ID, 30)
	period := fmt.Sprintf("%s – %s", s.Start.Local().Format("02 Jan 2006"), s.End.Add(-time.Nanosecond).Local().Format("02 Jan 2006"))
	text := "Period widened to " + period + " to show payment " + id
	if s.MerchantID != ps.Scope.MerchantID {
		text = "Payment " + id + " is merchant " + textsafe.Line(s.MerchantID, 30) +
			"'s: switched to it, " + period
	}
	return tea.Batch(tab.MsgCmd(ui.ScopeMsg{Scope: s}), tab.ToastCmd(ui.ToastInfo, text))
}

// takeWiden returns the payment waiting for scope s, if s is the scope
// asked for it; any other scope drops it (the user chose another).
func (ps *Payments) takeWiden(s ui.Scope) *jumpWiden {
	w := ps.jump.widen
	ps.jump.widen = nil
	if w == nil || !sameScope(w.scope, s) {
		return nil
	}
	return w
}

// openWidened opens the payment the scope was widened for (after start),
// and selects its row when it loads.
func (ps *Payments) openWidened(w *jumpWiden) tea.Cmd {
	if w == nil {
		return nil
	}
	cmd := ps.openDetail(w.p, false)
	ps.jump.selectID = w.p.ID
	ps.Layout()
	return tea.Batch(cmd, ps.List.Next())
}

func sameScope(a, b ui.Scope) bool {
	return a.MerchantID == b.MerchantID && a.Start.Equal(b.Start) && a.End.Equal(b.End) && a.Preset == b.Preset
}

// widenScope is s widened to hold p: p's merchant (when known and not
// s's), and the period stretched to whole UTC days to p's day.
func widenScope(s ui.Scope, p backend.Payment) ui.Scope {
	out := s
	out.Preset = "custom"
	if p.MerchantID != "" {
		out.MerchantID = p.MerchantID
	}
	when := tab.PaymentTime(p)
	if when.IsZero() {
		return out
	}
	from := jumpDayStart(when)
	to := from.Add(jumpDay)
	if !out.Start.IsZero() && from.Before(out.Start) {
		out.Start = from
	}
	if !out.End.IsZero() && to.After(out.End) {
		out.End = to
	}
	return out
}

// jumpDayStart is the start of t's UTC day.
func jumpDayStart(t time.Time) time.Time { return t.UTC().Truncate(jumpDay) }

// --- the search ----------------------------------------------------------------

// jumpSpan is a part of the search back, [start, end).
type jumpSpan struct{ start, end time.Time }

// jumpSpans cuts [bottom, top) into windows of jumpWindowDays, newest
// first, less the scope skip (nil: none) already looked through.
func jumpSpans(top, bottom time.Time, skip *ui.Scope) []jumpSpan {
	var out []jumpSpan
	add := func(start, end time.Time) {
		if start.Before(end) {
			out = append(out, jumpSpan{start, end})
		}
	}
	for end := top; end.After(bottom); end = end.AddDate(0, 0, -jumpWindowDays) {
		start := end.AddDate(0, 0, -jumpWindowDays)
		if start.Before(bottom) {
			start = bottom
		}
		if skip == nil {
			add(start, end)
			continue
		}
		ss, se := skip.Start, skip.End
		if ss.IsZero() {
			ss = bottom
		}
		if se.IsZero() {
			se = top
		}
		add(jumpLater(start, se), end)   // above the scope
		add(start, jumpEarlier(end, ss)) // below it
	}
	return out
}

func jumpLater(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func jumpEarlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// jumpSearch is one search, carried from command to command: each step
// runs in a command and answers with the next step (jumpProgressMsg) or
// the end (jumpResultMsg). Only the step running touches it.
type jumpSearch struct {
	stamp  tab.Stamp
	ctx    context.Context
	src    paymentSource
	finder orderFinder

	query, merchant string
	byID            bool   // the query may be an id
	localID         string // a loaded row with that order number
	idMissing       bool   // no payment has the query as its id
	v1Trouble       string // why the service's lookup could not be used
	// what "not found" suggests (the keys as the keymap has them)
	hintOther, hintOlder string

	top, bottom time.Time // the search back: [bottom, top)
	spans       []jumpSpan
	i           int
	pager       backend.Pager[backend.Payment]
	reached     time.Time // how far back it got
}

// begin reads by id, then asks the service by order number; what
// neither settles is searched back.
func (s *jumpSearch) begin() tea.Msg {
	if s.byID {
		p, err := s.src.GetPayment(s.ctx, s.query)
		switch {
		case err == nil:
			return s.found(p)
		case backend.KindOf(err) != backend.KindNotFound:
			return s.failed(err)
		}
		s.idMissing = true
	}
	if s.localID != "" {
		return s.found(backend.Payment{ID: s.localID})
	}
	if s.finder != nil {
		p, asked, err := s.finder.FindPaymentByOrderNo(s.ctx, s.merchant, s.query)
		switch {
		case !asked:
		case err == nil:
			return s.found(p)
		case backend.KindOf(err) == backend.KindNotFound:
			return s.notFound("the service's lookup by order number (v1) found none", s.hintOther)
		case cannotAsk(backend.KindOf(err)):
			s.v1Trouble = tab.ErrText(err)
		default:
			return s.failed(err)
		}
	}
	return s.next()
}

// cannotAsk reports whether a failure of the lookup by order number means
// it cannot be used with these credentials (then the lists are searched).
func cannotAsk(k backend.ErrorKind) bool {
	return k == backend.KindNotAuthorized || k == backend.KindUnauthenticated || k == backend.KindUnsupported
}

// next is the step after a page: the next page, or the end.
func (s *jumpSearch) next() tea.Msg {
	if s.i >= len(s.spans) {
		return s.notFound("", s.hintOlder)
	}
	return jumpProgressMsg{stamp: s.stamp, progress: s.progressText(), next: s.page}
}

// page reads one page of the search back.
func (s *jumpSearch) page() tea.Msg {
	sp := s.spans[s.i]
	if s.pager == nil {
		s.pager = s.src.ListPayments(backend.PeriodQuery{MerchantID: s.merchant, Start: sp.start, End: sp.end})
	}
	page, err := s.pager.Next(s.ctx)
	if err != nil {
		return s.failed(err)
	}
	var (
		best  backend.Payment
		match bool
	)
	for _, p := range page.Items {
		if strings.EqualFold(p.OrderNo, s.query) && (!match || tab.PaymentTime(p).After(tab.PaymentTime(best))) {
			best, match = p, true
		}
	}
	if match {
		return s.found(best)
	}
	if page.Done {
		s.reached = sp.start
		s.i++
		s.pager = nil
	} else if n := len(page.Items); n > 0 {
		if w := tab.PaymentTime(page.Items[n-1]); w.After(sp.start) && w.Before(s.reached) {
			s.reached = w
		}
	}
	return s.next()
}

func (s *jumpSearch) progressText() string {
	q := textsafe.Line(s.query, 40)
	if !s.reached.Before(s.top) {
		return fmt.Sprintf("looking for %s in the last %d days…", q, jumpBackDays)
	}
	days := int(s.top.Sub(s.reached) / jumpDay)
	return fmt.Sprintf("looking for %s: back to %s (%d of %d days)…", q, s.reached.UTC().Format("02 Jan"), days, jumpBackDays)
}

func (s *jumpSearch) found(p backend.Payment) tea.Msg {
	return jumpResultMsg{stamp: s.stamp, query: s.query, p: p, found: true}
}

func (s *jumpSearch) failed(err error) tea.Msg {
	return jumpResultMsg{stamp: s.stamp, query: s.query, err: err}
}

// notFound says where the search looked: the service's lookup (how, when
// set), else the days searched back.
func (s *jumpSearch) notFound(how, hint string) tea.Msg {
	q := textsafe.Line(s.query, 60)
	what := "order number " + q
	if s.byID {
		what = "id or order number " + q
	}
	text := "No payment with " + what + " for merchant " + textsafe.Line(s.merchant, 30)
	var where []string
	if s.idMissing {
		where = append(where, "the service has no payment with that id")
	}
	if how != "" {
		where = append(where, how)
	} else {
		last := s.top.Add(-time.Nanosecond)
		where = append(where, fmt.Sprintf("none in %s – %s (the last %d days)",
			s.bottom.UTC().Format("02 Jan"), last.UTC().Format("02 Jan"), jumpBackDays))
		if s.v1Trouble != "" {
			where = append(where, "the lookup by order number (v1) could not be used: "+s.v1Trouble)
		}
	}
	text += ": " + strings.Join(where, "; ")
	return jumpResultMsg{stamp: s.stamp, query: s.query, notFound: text, hint: hint}
}
