// Package overview is the Overview (key 0): the last 24 hours of a
// merchant's payments, or of every merchant's, at a glance. It says in
// words what stands out against the day's own pattern, draws the day hour
// by hour, and takes the person from a figure to the rows behind it in
// two keys (enter opens the Payments tab with the search and period that
// select exactly them).
//
// Its figures are counted as the rows arrive (views/overview/hourly), so a
// frame or a key costs the day's 24 buckets, never a scan of the rows.
// docs/overview.md says how a figure is judged to stand out.
package overview

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/overview/hourly"
	"paydash/views/tab"
)

// dayHours is the hours the Overview shows.
const dayHours = hourly.Hours

// stuckAfter is how long a payment may stay in Confirmation or Pending
// before the Overview counts it as stopped there.
const stuckAfter = 5 * time.Minute

// Overview is the tab.
type Overview struct {
	deps  tab.Deps
	theme ui.Theme
	scope ui.Scope // its merchant; the period is always the last day
	all   bool     // every merchant, not scope's ("m" chooses)
	w, h  int

	now       time.Time // the end of the day shown
	tally     hourly.Tally
	day       hourly.Day
	sum       hourly.Counts // the day in one bucket
	dayCodes  []codeCount   // the day's most frequent decline codes
	findings  []hourly.Finding
	reads     tab.Reader // the day's read
	loading   bool
	err       error
	refreshed time.Time
	lastRead  time.Time // on the local clock: when a read last began
	lastFull  time.Time // and a read of the whole day
	// shown: the Overview has been on screen (the shell refreshes only the
	// tab shown); until then it reads only the day's payments, for "! N",
	// and not the refunds, holds and stickers (holds are 30 days of them).
	shown     bool
	alsoAsked bool // the refunds, holds and stickers were asked for
	codes     codeReads
	also      also // refunds, holds and stickers
	revoked   int  // tokens seen revoked today
	known     int  // tokens paydash knows

	cursor int // the hour under the chart's cursor, 0..dayHours-1
	sel    int // the selected line (lines)
}

// New makes the Overview.
func New(d tab.Deps) ui.Tab {
	return &Overview{deps: d, theme: d.Theme, cursor: dayHours - 1}
}

func (o *Overview) ID() ui.TabID          { return ui.TabOverview }
func (o *Overview) Title() string         { return "Overview" }
func (o *Overview) Context() keys.Context { return keys.ContextList }

// Available implements ui.Tab: moving, opening the rows behind a figure,
// refreshing and switching merchant; no other key exists here.
func (o *Overview) Available(a keys.Action) (bool, string) {
	switch a {
	case keys.ActUp, keys.ActDown, keys.ActLeft, keys.ActRight, keys.ActTop, keys.ActBottom, keys.ActOpen:
		return true, ""
	}
	return false, ""
}

// EveryMerchant implements ui.EveryMerchantTab: "m" here offers every
// merchant.
func (o *Overview) EveryMerchant() bool { return o.all }

// Status implements ui.Tab.
func (o *Overview) Status() ui.TabStatus {
	return ui.TabStatus{Loading: o.loading || len(o.codes.flying) > 0, Rows: o.tally.Len(), Shown: o.tally.Len(),
		AtEnd: !o.loading, Refreshed: o.refreshed, StandsOut: len(o.findings)}
}

// Init reads the day for s's merchant.
func (o *Overview) Init(s ui.Scope) tea.Cmd {
	o.scope = s
	return o.reload(o.deps.TimeNow())
}

// merchants are the merchants the day is read for.
func (o *Overview) merchants() []string {
	if o.all {
		return o.deps.Backend.Describe().MerchantIDs
	}
	return []string{o.scope.MerchantID}
}

// merchant is the merchant the figures are of: "" for every one.
func (o *Overview) merchant() string {
	if o.all {
		return ""
	}
	return o.scope.MerchantID
}

// reload forgets what was counted and reads the day again, for another
// merchant.
func (o *Overview) reload(now time.Time) tea.Cmd {
	o.tally = hourly.Tally{}
	o.codes = codeReads{}
	o.also = also{}
	o.findings = nil
	o.alsoAsked = false
	return o.read(now, true, o.shown)
}

// read reads the day that ends at now, whole (with the refunds, holds and
// stickers) or its last recentHours; what it brings replaces what was
// counted of the same payments.
func (o *Overview) read(now time.Time, whole, withAlso bool) tea.Cmd {
	o.revoked, o.known = revokedToday(tab.NewTokenMemo(o.deps), o.merchants(), now)
	o.codes.restart() // the code reads under way end with the read before
	ctx, stamp := o.reads.Next()
	o.loading = true
	o.now = now
	o.lastRead = o.deps.TimeNow()
	o.figure()
	if !whole {
		start := now.Truncate(time.Hour).Add(-(recentHours - 1) * time.Hour)
		return readDay(ctx, stamp, o.deps.Backend, o.merchants(), start, now)
	}
	o.lastFull = o.lastRead
	start := now.Truncate(time.Hour).Add(-(dayHours - 1) * time.Hour)
	day := readDay(ctx, stamp, o.deps.Backend, o.merchants(), start, now)
	if !withAlso {
		return day
	}
	o.alsoAsked = true
	return tea.Batch(day, readAlso(ctx, stamp, o.deps.Backend, o.merchants(), now))
}

// refresh reads again at now, for the Overview shown: the whole day and
// the refunds, holds and stickers when asked (r), when fullEvery has
// passed since the last whole read, or the first time it is shown; else
// the recent hours. A periodic one does not cut a read still under way
// short: on a slow service, starting again would never end.
func (o *Overview) refresh(now time.Time, manual bool) tea.Cmd {
	o.shown = true
	if o.loading && !manual {
		return nil
	}
	whole := manual || !o.alsoAsked || o.deps.TimeNow().Sub(o.lastFull) >= fullEvery
	return o.read(now, whole, whole)
}

// figure works the day's figures out from the tally: the buckets and what
// stands out.
func (o *Overview) figure() {
	o.tally.Trim(o.now)
	o.day = o.tally.Day(o.now, o.merchant())
	o.sum = o.day.Sum()
	o.dayCodes = topCodesOf(o.sum)
	o.findings = hourly.StandOut(o.day)
	o.sel = min(o.sel, len(o.lines())-1)
}

// Update implements ui.Tab.
func (o *Overview) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.SizeMsg:
		o.w, o.h = msg.Width, msg.Height
	case ui.ThemeMsg:
		o.theme = msg.Theme
	case ui.ScopeMsg:
		if msg.Scope.MerchantID != o.scope.MerchantID {
			o.scope, o.all = msg.Scope, false
			return o, o.reload(o.deps.TimeNow())
		}
		o.scope = msg.Scope
	case ui.EveryMerchantMsg:
		if msg.On != o.all {
			o.all = msg.On
			return o, o.reload(o.deps.TimeNow())
		}
	case ui.RefreshMsg:
		now := msg.Now
		if now.IsZero() {
			now = o.deps.TimeNow()
		}
		return o, o.refresh(now, msg.Manual)
	case ui.TickMsg:
		// Only the shown tab is refreshed by the shell: while hidden, the
		// Overview keeps its figures (and the "! N") up to date itself.
		if !o.loading && !o.lastRead.IsZero() && o.deps.TimeNow().Sub(o.lastRead) >= backgroundEvery {
			return o, o.read(o.now.Add(o.deps.TimeNow().Sub(o.lastRead)), false, false)
		}
	case dayMsg:
		return o, o.onDay(msg)
	case codeMsg:
		return o, o.onCode(msg)
	case tab.KnownSavedMsg: // a token noted or revoked in another tab
		o.revoked, o.known = revokedToday(tab.NewTokenMemo(o.deps), o.merchants(), o.now)
	case alsoMsg:
		if o.reads.Fresh(msg.stamp) && (msg.also.read || !o.also.read) {
			o.also = msg.also // a failed read keeps the counts it had, and says so below them
		} else if o.reads.Fresh(msg.stamp) {
			o.also.err = msg.also.err
		}
	case tea.KeyPressMsg:
		return o, o.key(msg)
	}
	return o, nil
}

// onDay counts the day's payments, and asks for the codes the list did
// not give.
func (o *Overview) onDay(msg dayMsg) tea.Cmd {
	if !o.reads.Fresh(msg.stamp) {
		return nil
	}
	o.loading = false
	o.err = msg.err
	for _, p := range msg.rows {
		if p.Status == backend.PaymentRejected && p.ResultCode == "" {
			if code, ok := o.codes.known[p.ID]; ok {
				p.ResultCode = code // read before: the list still does not say it
			}
		}
		o.tally.Add(p)
	}
	if msg.err == nil {
		o.refreshed = msg.now
	}
	o.codes.want(msg.rows)
	o.figure()
	return o.nextCodes()
}

// onCode counts a declined payment again with its result code.
func (o *Overview) onCode(msg codeMsg) tea.Cmd {
	if !o.reads.Fresh(msg.stamp) {
		return nil // its read was abandoned; restart put the payment back in the queue
	}
	if msg.err != nil {
		o.codes.failed(msg.id) // asked again after the next read of the day
		return o.nextCodes()
	}
	o.codes.done(msg.id, msg.p.ResultCode)
	o.tally.Add(msg.p)
	o.figure()
	return o.nextCodes()
}

// nextCodes starts code reads while fewer than codeReadsAtOnce are under
// way.
func (o *Overview) nextCodes() tea.Cmd {
	ctx, stamp := o.reads.Current()
	var cmds []tea.Cmd
	for len(o.codes.flying) < codeReadsAtOnce {
		id, ok := o.codes.next()
		if !ok {
			break
		}
		cmds = append(cmds, readCode(ctx, stamp, o.deps.Backend, id))
	}
	return tea.Batch(cmds...)
}

// codeReads are the declined payments whose result code the list did not
// give: read newest first, a few at a time, each once. A read that fails,
// or is abandoned with the day's read it belongs to, is asked again.
type codeReads struct {
	queue   []backend.Payment          // to read, newest first
	flying  map[string]backend.Payment // being read
	asked   map[string]bool            // queued, being read, or read
	known   map[string]string          // the codes read, by payment id
	lacking int                        // declines the list gave without a code
	read    int                        // of them, read
}

// want queues the declines of rows that came without a code.
func (c *codeReads) want(rows []backend.Payment) {
	if c.asked == nil {
		c.asked, c.known, c.flying = map[string]bool{}, map[string]string{}, map[string]backend.Payment{}
	}
	for _, p := range rows {
		if p.Status != backend.PaymentRejected || p.ResultCode != "" || c.asked[p.ID] {
			continue
		}
		c.asked[p.ID] = true
		c.lacking++
		c.queue = append(c.queue, p)
	}
	slices.SortStableFunc(c.queue, func(a, b backend.Payment) int { return b.Created.Compare(a.Created) })
}

// next is the next payment to read, now being read.
func (c *codeReads) next() (string, bool) {
	if len(c.queue) == 0 {
		return "", false
	}
	p := c.queue[0]
	c.queue = c.queue[1:]
	c.flying[p.ID] = p
	return p.ID, true
}

// done records a read and the code it gave.
func (c *codeReads) done(id, code string) {
	delete(c.flying, id)
	c.read++
	if code != "" {
		c.known[id] = code
	}
}

// failed forgets a read that failed: the next read of the day asks for it
// again.
func (c *codeReads) failed(id string) {
	delete(c.flying, id)
	delete(c.asked, id)
	c.lacking--
}

// restart puts the payments being read back at the head of the queue: the
// day's read they belonged to was abandoned, and their reads with it.
func (c *codeReads) restart() {
	for _, p := range c.flying {
		c.queue = append(c.queue, p)
	}
	clear(c.flying)
	slices.SortStableFunc(c.queue, func(a, b backend.Payment) int { return b.Created.Compare(a.Created) })
}
