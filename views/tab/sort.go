package tab

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
)

// Sorting a list (docs/sorting.md): s opens a chooser of the list's sortable
// columns (those with Less), S reverses the sort. The datatable does the
// sorting and keeps it: new pages and refreshed rows take their sorted
// places, and the selection stays on its row.
//
// Decisions:
//   - A column chosen anew sorts in its natural direction: times newest
//     first, amounts and counts largest first, ids highest (newest) first,
//     text A → Z. That is what a support person looks for: the latest, the
//     largest. Choosing the column the list is sorted by keeps its
//     direction (S reverses it).
//   - A list's own order is newest first (payments, refunds, transfers by
//     their time; tokens by when last seen; stickers by id). S on a list
//     in its own order sorts it oldest first by that column, which then
//     shows as the sort ("sorted by Created ▲ oldest first"), so what S did
//     is visible; S again, or choosing that column newest first, is the
//     own order again (no sort shown).
//   - The sort shows in the column's header (▲/▼) and on the list's
//     bottom line, with the filter: "sorted by Amount ▼ largest first".
//   - Sorting shows the top of the sorted list when the cursor was on the
//     first row; otherwise the selected row stays selected, shown under
//     the list's top when it is within the first screen, else mid-screen.
//     Afterwards (new pages, refreshes) the selection keeps its row and
//     its line, as the datatable does.
//   - A sort is of the whole list: it reads the rest of the list, and
//     says what it sorted until it has (below: "a sort of the whole
//     list"). Amounts sort within their currency (cmpAmounts).

// sortMsg is a sort chosen in the chooser, for the list it names.
type sortMsg struct {
	list uint64
	key  string
	desc bool
}

// columnKind says how a column's values read, for its natural direction
// and the words of its directions.
type columnKind int

const (
	kindText columnKind = iota
	kindTime
	kindNumber
	kindID
)

// kindOf tells a column's kind from its key (the tabs name their columns
// alike) or, for a number, its right alignment.
func kindOf[T any](c datatable.Column[T]) columnKind {
	switch c.Key {
	case "created", "date", "seen", "expires", "completed", "updated", "time":
		return kindTime
	case "id", "register", "payment":
		return kindID
	case "amount", "payments", "transfer":
		return kindNumber
	}
	if c.Align == lipgloss.Right {
		return kindNumber
	}
	return kindText
}

// naturalDesc is the direction a column sorts in when chosen anew.
func naturalDesc(k columnKind) bool { return k != kindText }

// sortWords say what a direction means for a column of kind k.
func sortWords(k columnKind, key string, desc bool) string {
	switch k {
	case kindTime:
		if key == "expires" {
			return map[bool]string{true: "latest first", false: "soonest first"}[desc]
		}
		return map[bool]string{true: "newest first", false: "oldest first"}[desc]
	case kindNumber:
		return map[bool]string{true: "largest first", false: "smallest first"}[desc]
	case kindID:
		return map[bool]string{true: "highest first", false: "lowest first"}[desc]
	}
	return map[bool]string{true: "Z → A", false: "A → Z"}[desc]
}

func arrow(desc bool) string {
	if desc {
		return "▼"
	}
	return "▲"
}

// sortable are the list's columns that can be sorted, in their order.
func (pl *PagedList[T]) sortable() []datatable.Column[T] {
	var out []datatable.Column[T]
	for _, c := range pl.Cols {
		if c.Less != nil {
			out = append(out, c)
		}
	}
	return out
}

func (pl *PagedList[T]) column(key string) (datatable.Column[T], bool) {
	i := slices.IndexFunc(pl.Cols, func(c datatable.Column[T]) bool { return c.Key == key })
	if i < 0 {
		return datatable.Column[T]{}, false
	}
	return pl.Cols[i], true
}

// ownOrderKey is the column the list's own order follows, newest first:
// the first sortable of created, date, seen, id; "" when it has none.
func (pl *PagedList[T]) ownOrderKey() string {
	for _, k := range []string{"created", "date", "seen", "id"} {
		if c, ok := pl.column(k); ok && c.Less != nil {
			return k
		}
	}
	return ""
}

// columnWords say what a direction means for the column c: its kind's
// words, and for a column grouped by currency (an amount) that the order
// holds within each currency.
func columnWords[T any](c datatable.Column[T], desc bool) string {
	w := sortWords(kindOf(c), c.Key, desc)
	if c.Group != nil {
		w += " in each currency"
	}
	return w
}

// sortDescription is the current sort for people: "Amount ▼ largest
// first in each currency"; "" in the list's own order.
func (pl *PagedList[T]) sortDescription() string {
	key, desc := pl.Table.SortKey()
	c, ok := pl.column(key)
	if key == "" || !ok {
		return ""
	}
	return textsafe.Line(c.Title, 30) + " " + arrow(desc) + " " + columnWords(c, desc)
}

// ownOrderDescription names the list's own order.
func (pl *PagedList[T]) ownOrderDescription() string {
	if c, ok := pl.column(pl.ownOrderKey()); ok {
		return "the list's own order (" + textsafe.Line(c.Title, 30) + ", " + columnWords(c, true) + ")"
	}
	return "the list's own order"
}

// chooseSort opens the sort chooser (s); the choice comes back as a
// sortMsg. relayout is what the tab does when the bottom line comes or
// goes.
func (pl *PagedList[T]) chooseSort(title string, relayout func()) tea.Cmd {
	cur, curDesc := pl.Table.SortKey()
	spec := ui.SortSpec{Title: title, Now: pl.sortDescription()}
	if pl.sorted() && !pl.Done {
		// Short: the chooser's line is narrow (the list's line says more).
		if pl.SortReading {
			spec.Now += ": reading the rest"
		} else {
			spec.Now += ": " + money.Count(pl.Table.Len()) + " loaded rows only"
		}
	}
	if cur == "" {
		// The own order is its column newest first: marked as such.
		spec.Now = pl.ownOrderDescription()
		cur, curDesc = pl.ownOrderKey(), true
	}
	spec.Current = cur
	for _, c := range pl.sortable() {
		k := kindOf(c)
		desc := naturalDesc(k)
		if c.Key == cur {
			desc = curDesc
		}
		spec.Columns = append(spec.Columns, ui.SortColumn{Key: c.Key, Title: c.Title, Desc: desc, Words: columnWords(c, desc)})
	}
	if len(spec.Columns) == 0 {
		return ToastCmd(ui.ToastInfo, "no column of this list can be sorted")
	}
	pl.relayout = relayout
	id := pl.id
	spec.Choose = func(key string, desc bool) tea.Cmd {
		return MsgCmd(sortMsg{list: id, key: key, desc: desc})
	}
	return pl.Dialogs.Open(ui.NewSortChooser(spec, pl.km, pl.theme))
}

// reverseSort reverses the sort (S); a list in its own order (newest
// first) is sorted oldest first by the column that order follows, and
// back.
func (pl *PagedList[T]) reverseSort() tea.Cmd {
	key, desc := pl.Table.SortKey()
	if key == "" {
		key = pl.ownOrderKey()
		if key == "" {
			return ToastCmd(ui.ToastInfo, "choose a column to sort by first (s)")
		}
		desc = true // the own order: reversed below
	}
	return pl.SetSort(key, !desc)
}

// SetSort sorts the list by the column key (desc: descending); the
// selection stays on its row. The column of the list's own order, newest
// first, is that order: the sort is dropped. A sort of a list not read to
// its end reads the rest (readForSort): the command asks for the next
// page.
func (pl *PagedList[T]) SetSort(key string, desc bool) tea.Cmd {
	if key == pl.ownOrderKey() && desc {
		key, desc = "", false
	}
	atTop := pl.Table.Cursor() == 0
	pl.Table.SortBy(key, desc)
	if pl.relayout != nil {
		pl.relayout()
	} else {
		pl.layout()
	}
	pl.showSorted(atTop)
	return pl.readForSort()
}

// showSorted puts the view on the sorted list: its top when the cursor
// was on the first row (nothing chosen yet: the top is what is looked
// at), else the selected row, with the list's top above it when the row
// is within the first screen and in the middle of the screen otherwise.
func (pl *PagedList[T]) showSorted(atTop bool) {
	if pl.Table.Filtered() == 0 {
		return
	}
	pos := pl.Table.Cursor()
	pl.Table.SetCursor(0)
	if !atTop {
		pl.Table.SetCursor(pos)
	}
}

// onSort applies a sortMsg.
func (pl *PagedList[T]) onSort(msg sortMsg) tea.Cmd {
	return pl.SetSort(msg.key, msg.desc)
}

// --- a sort of the whole list ----------------------------------------------------
//
// A sort claims the list's order, so it is of the whole list (the whole
// period): choosing one, reversing one or choosing the current one again
// while the list is not read to its end reads the rest page after page,
// as a committed search does (list.go: onPage), with its progress in the
// status bar and esc stopping it. Rows read take their sorted places; the
// row under the cursor keeps its screen line (the datatable anchors it),
// and the line under the list counts the rows that went above the screen
// ("↑ 2,900 sorted above · g"). Until the read ends the line says what is
// sorted: "sorted by Created ▲ oldest first: loaded 300 of ~17,000 —
// reading the rest · esc stops"; after esc (or a page that could not be
// read), "…: the 4,200 loaded rows — the period holds more (s enter reads
// on)". A new load of the list (another period, merchant or search)
// with a sort on reads its whole list again.

// sorted reports whether a sort is on (not the list's own order).
func (pl *PagedList[T]) sorted() bool {
	key, _ := pl.Table.SortKey()
	return key != ""
}

// readForSort starts reading the rest of the list for the sort, when one
// is on and the list is not at its end; nil otherwise (a page out goes
// on: its answer asks for the next).
func (pl *PagedList[T]) readForSort() tea.Cmd {
	pl.sortStopped = false
	pl.SortReading = pl.sorted() && !pl.Done
	if !pl.SortReading {
		return nil
	}
	return pl.Next()
}

// stopReading stops what reads the rest of the list (a committed search,
// a sort), for esc; false when nothing was reading. The page out still
// arrives: a pager cannot take back a page it has moved past.
func (pl *PagedList[T]) stopReading() bool {
	if pl.Done || (!pl.seeking && !pl.SortReading) {
		return false
	}
	pl.seekStopped = pl.seekStopped || pl.seeking
	pl.sortStopped = pl.sortStopped || pl.SortReading
	pl.seeking, pl.SortReading = false, false
	pl.readAhead(false) // every slice of a period read at once stops now
	return true
}

// sortReadFailed stops the sort's read where a page could not be read.
func (pl *PagedList[T]) sortReadFailed() {
	if pl.SortReading {
		pl.SortReading, pl.sortStopped = false, true
	}
}

// whole is what the list covers, for people: "period" or "list".
func (pl *PagedList[T]) whole() string {
	if pl.Span[0].IsZero() {
		return "list"
	}
	return "period"
}

// sortReach says what a sort covers when it is not the whole list, and
// the keys that apply: "loaded 300 of ~17,000 — reading the rest", " ·
// esc stops"; "the 4,200 loaded rows — the period holds more", " (s enter
// reads on)". "" when the sort is of the whole list, or there is none.
func (pl *PagedList[T]) sortReach() (text, hint string) {
	if !pl.sorted() || pl.Done {
		return "", ""
	}
	n := pl.Table.Len()
	if pl.SortReading {
		text = "loaded " + money.Count(n)
		if est, ok := pl.estimate(); ok {
			text += " of ~" + money.Count(est)
		}
		return text + " — reading the rest", " · " + KeyName(pl.km, keys.ActClose, "esc") + " stops"
	}
	rows := " loaded rows"
	if n == 1 {
		rows = " loaded row"
	}
	return "the " + money.Count(n) + rows + " — the " + pl.whole() + " holds more",
		" (" + KeyName(pl.km, keys.ActSort, "s") + " enter reads on)"
}

// periodRead is the share of the period read so far, from how far back
// the oldest loaded row is (pages come newest first); false for a list
// that is not a period or before a row is loaded.
func (pl *PagedList[T]) periodRead() (float64, bool) {
	start, end := pl.Span[0], pl.Span[1]
	if pl.when == nil || pl.oldest.IsZero() || start.IsZero() || !end.After(start) {
		return 0, false
	}
	done := end.Sub(pl.oldest).Seconds() / end.Sub(start).Seconds()
	return min(max(done, 0), 1), true
}

// estimate is about how many rows the whole period holds, from the rows
// loaded and the share of the period they cover (rows loaded over the time
// they span, the period's end or the newest row, whichever is earlier,
// back to the oldest), to two significant digits; false when there is
// nothing to tell it from.
func (pl *PagedList[T]) estimate() (int, bool) {
	start, end := pl.Span[0], pl.Span[1]
	if pl.when == nil || pl.oldest.IsZero() || start.IsZero() || !end.After(start) {
		return 0, false
	}
	if !pl.newest.IsZero() && pl.newest.Before(end) {
		end = pl.newest
	}
	covered, all := end.Sub(pl.oldest).Seconds(), end.Sub(start).Seconds()
	n := pl.Table.Len()
	if covered <= 0 || all <= 0 {
		return 0, false
	}
	est := max(float64(n)*all/covered, float64(n))
	if est > 1e12 {
		return 0, false
	}
	return max(roundSignificant(int(est), 2), n), true
}

// roundSignificant rounds n to digits significant digits: 17,234 → 17,000.
func roundSignificant(n, digits int) int {
	p := 1
	for m := n; m >= int(math.Pow10(digits)); m /= 10 {
		p *= 10
	}
	return (n + p/2) / p * p
}

// sortProgress is how far a sort's read has got, for the status bar:
// "read 12,300 rows for the sort, back to 14 Nov 10:32 (34% of the
// period)…".
func (pl *PagedList[T]) sortProgress() string {
	return pl.readProgress("read " + money.Count(pl.Table.Len()) + " rows for the sort")
}

// aboveMark is the start of the line under the list when rows are above
// the screen that the user has not seen: "↑ 5 new" (a refresh), "↑ 2,900
// sorted above" (read for the sort), and the key that shows them; "" when
// there are none.
func (pl *PagedList[T]) aboveMark(theme ui.Theme) string {
	var marks []string
	if n := pl.Table.NewAbove(); n > 0 {
		marks = append(marks, fmt.Sprintf("↑ %d new", n))
	}
	if n := pl.Table.SortedAbove(); n > 0 {
		m := money.Count(n) + " sorted above"
		if len(marks) == 0 {
			m = "↑ " + m
		}
		marks = append(marks, m)
	}
	if len(marks) == 0 {
		return ""
	}
	return theme.Accent.Render(strings.Join(marks, " · ")) + theme.Muted.Render(" · "+KeyName(pl.km, keys.ActTop, "g"))
}

// CmpAmounts orders amounts by currency, then value: amounts of different
// currencies are never compared as bare numbers. The amount columns'
// Less; their Group (the currency) keeps the currencies A → Z in either
// direction, so a Rank of the value alone agrees with it within a group.
func CmpAmounts(a, b money.Amount) int {
	if c := cmp.Compare(a.Currency, b.Currency); c != 0 {
		return c
	}
	return cmp.Compare(a.Value, b.Value)
}

// --- fast sorting ------------------------------------------------------------------

// WithRanks gives the lists' number, time and id columns a Rank: the
// number that orders the rows as the column's Less does, so that the
// datatable sorts 100,000 rows by numbers read once (within 50 ms:
// docs/sorting.md) instead of calling Less on 450-byte rows n·log n times.
// A Rank must agree with its column's Less exactly (within a Group, for
// the amounts: their currency): sort_test.go checks
// every one against Less on the sandbox's rows, so changing a Less
// without its Rank fails there.
func WithRanks[T any](cols []datatable.Column[T]) []datatable.Column[T] {
	out := slices.Clone(cols)
	for i := range out {
		if out[i].Rank == nil && out[i].Less != nil {
			out[i].Rank = rankOf[T](out[i].Key)
		}
	}
	return out
}

// rankOf is the Rank of the column key of rows of type T, nil when there
// is none (text columns: Less sorts them).
func rankOf[T any](key string) func(T) (int64, bool) {
	var f any
	switch any(*new(T)).(type) {
	case backend.Payment:
		f = map[string]func(backend.Payment) (int64, bool){
			"id":      func(p backend.Payment) (int64, bool) { return idRank(p.ID) },
			"created": func(p backend.Payment) (int64, bool) { return timeRank(PaymentTime(p)) },
			"amount":  func(p backend.Payment) (int64, bool) { return int64(p.Amount.Value), true },
		}[key]
	case backend.Refund:
		f = map[string]func(backend.Refund) (int64, bool){
			"id":      func(r backend.Refund) (int64, bool) { return idRank(r.ID) },
			"created": func(r backend.Refund) (int64, bool) { return timeRank(RefundTime(r)) },
			"amount":  func(r backend.Refund) (int64, bool) { return int64(r.Amount.Value), true },
			"payment": func(r backend.Refund) (int64, bool) { return idRank(r.PaymentID) },
		}[key]
	case backend.Sticker:
		f = map[string]func(backend.Sticker) (int64, bool){
			"id":     func(s backend.Sticker) (int64, bool) { return idRank(s.ID) },
			"amount": func(s backend.Sticker) (int64, bool) { return int64(s.Amount.Value), true },
		}[key]
	case TokenView:
		f = map[string]func(TokenView) (int64, bool){
			"expires":  func(v TokenView) (int64, bool) { return timeRank(v.Expires) },
			"seen":     func(v TokenView) (int64, bool) { return timeRank(v.LastSeen) },
			"payments": func(v TokenView) (int64, bool) { return int64(len(v.Payments)), true },
		}[key]
	case backend.Transfer:
		f = map[string]func(backend.Transfer) (int64, bool){
			"date":     func(t backend.Transfer) (int64, bool) { return timeRank(t.Created) },
			"amount":   func(t backend.Transfer) (int64, bool) { return int64(t.Amount.Value), true },
			"order":    func(t backend.Transfer) (int64, bool) { return idRank(t.PaymentOrderID) },
			"register": func(t backend.Transfer) (int64, bool) { return idRank(t.RegisterID) },
		}[key]
	case backend.Document:
		f = map[string]func(backend.Document) (int64, bool){
			"date": func(d backend.Document) (int64, bool) { return timeRank(d.Created) },
		}[key]
	}
	r, _ := f.(func(T) (int64, bool))
	return r
}

// timeRank orders times as Time.Compare does: the zero time first, then
// nanoseconds since 1970; ok is false out of the years 1678–2262, where
// those do not fit.
func timeRank(t time.Time) (int64, bool) {
	switch {
	case t.IsZero():
		return math.MinInt64, true
	case t.Year() < 1678 || t.Year() > 2261:
		return 0, false
	}
	return t.UnixNano(), true
}

// idRank orders ids as cmpIDs does, for an id of digits (no leading zero,
// at most 18): its number; ok is false for any other id.
func idRank(id string) (int64, bool) {
	if !IsDigits(id) || len(id) > 18 || (len(id) > 1 && id[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseInt(id, 10, 64)
	return n, err == nil
}
