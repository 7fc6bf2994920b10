package registers

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/tab"
)

// documentPane is the viewer of one of the account's documents: a CSV as
// a table (w shows its text), any other text as text, and anything else
// described, with ctrl+s saving it under its own name.
type documentPane struct {
	src   registerSource
	km    keys.Map
	theme ui.Theme

	open    bool
	doc     backend.Document
	reads   tab.Reader
	loading bool
	got     *documentData // nil until downloaded
	asText  bool          // the text view of a CSV

	table   datatable.Model[int32]
	textSc  tab.Scroller
	w, h    int
	dialogs *tab.DialogSlot // the tab's: the save dialog opens through it at once
}

// documentData is a downloaded document, made ready for the screen in the
// command that downloaded it.
type documentData struct {
	content backend.DocumentContent
	err     error
	csv     *csvTable // the document as a table, when it is a CSV
	csvErr  error     // why a CSV could not be read as a table
	text    []string  // its lines, when it is text
}

type documentMsg struct {
	stamp tab.Stamp
	data  *documentData
}

// maxCSVRows bounds the table of a document; the text view and the saved
// file still hold all of it.
const maxCSVRows = 200_000

// maxCSVColumns bounds the table's columns: more would not fit any screen.
const maxCSVColumns = 64

// csvTable is a CSV document read: its header and rows.
type csvTable struct {
	header    []string
	rows      [][]string
	truncated bool // more rows than maxCSVRows
}

func newDocumentPane(src registerSource, km keys.Map, th ui.Theme) *documentPane {
	p := &documentPane{src: src, km: km, theme: th}
	p.table = newCSVTable(nil, km, th)
	return p
}

func (docp *documentPane) setTheme(th ui.Theme) {
	docp.theme = th
	docp.table.SetStyles(th.Table)
}

func (docp *documentPane) isOpen() bool { return docp.open }
func (docp *documentPane) busy() bool   { return docp.open && docp.loading }

// show opens the pane on a document (in its text view when text) and
// downloads it.
func (docp *documentPane) show(doc backend.Document, text bool) tea.Cmd {
	docp.open, docp.doc, docp.asText, docp.got = true, doc, text, nil
	docp.textSc = tab.Scroller{}
	return docp.reload()
}

// reload downloads the document again (r); nothing when the pane is closed.
func (docp *documentPane) reload() tea.Cmd {
	if !docp.open {
		return nil
	}
	ctx, st := docp.reads.Next()
	docp.loading = true
	src, id := docp.src, docp.doc.ID
	return func() tea.Msg {
		c, err := src.GetDocument(ctx, id)
		return documentMsg{stamp: st, data: prepareDocument(c, err)}
	}
}

// prepareDocument reads a downloaded document as a table or text. It runs
// in a command.
func prepareDocument(c backend.DocumentContent, err error) *documentData {
	d := &documentData{content: c, err: err}
	if err != nil {
		return d
	}
	if isText(c) {
		d.text = tab.RawLines(c.Data)
	}
	if isCSV(c) {
		d.csv, d.csvErr = readCSV(c.Data)
	}
	return d
}

// isCSV: the service says text/csv, or the file is named .csv.
func isCSV(c backend.DocumentContent) bool {
	return strings.Contains(strings.ToLower(c.ContentType), "csv") || strings.HasSuffix(strings.ToLower(c.FileName), ".csv")
}

// isText: a text type (shown cleaned, bad bytes replaced), or anything
// else that is UTF-8 without NUL bytes and not a PDF.
func isText(c backend.DocumentContent) bool {
	ct := strings.ToLower(c.ContentType)
	if strings.HasPrefix(ct, "text/") || isCSV(c) {
		return true
	}
	return !strings.Contains(ct, "pdf") && utf8.Valid(c.Data) && !bytes.ContainsRune(c.Data, 0)
}

// readCSV reads a CSV document leniently (quotes, ragged rows), the first
// record as its header.
func readCSV(data []byte) (*csvTable, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	r.LazyQuotes = true
	r.FieldsPerRecord = -1
	t := &csvTable{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return t, err
		}
		if t.header == nil {
			t.header = rec
			continue
		}
		if len(t.rows) == maxCSVRows {
			t.truncated = true
			break
		}
		t.rows = append(t.rows, rec)
	}
	if t.header == nil {
		return nil, errors.New("the CSV is empty")
	}
	return t, nil
}

func newCSVTable(t *csvTable, km keys.Map, th ui.Theme) datatable.Model[int32] {
	var cols []datatable.Column[int32]
	var rows []int32
	if t != nil {
		for j, title := range t.header[:min(len(t.header), maxCSVColumns)] {
			cols = append(cols, csvColumn(t, j, title))
		}
		rows = make([]int32, len(t.rows))
		for i := range rows {
			rows[i] = int32(i)
		}
	}
	m := datatable.New(datatable.Config[int32]{
		ID:        func(i int32) string { return strconv.Itoa(int(i)) },
		Columns:   cols,
		Styles:    th.Table,
		EmptyText: "The document has a header and no rows",
		EndText:   "— end of the document —",
	})
	m.KeyMap = tab.TableKeys(km)
	m.SetRows(rows)
	m.SetEnd(true)
	return m
}

// csvColumn is column j of a CSV: as wide as its header and its first
// rows need (to a cap), right-aligned when its first rows are numbers,
// the leftmost columns dropped last.
func csvColumn(t *csvTable, j int, title string) datatable.Column[int32] {
	cell := func(i int32) string {
		if r := t.rows[i]; j < len(r) {
			return r[j]
		}
		return ""
	}
	width, numeric := min(utf8.RuneCountInString(title), 30), true
	for i := 0; i < min(len(t.rows), 100); i++ {
		v := cell(int32(i))
		width = max(width, min(utf8.RuneCountInString(v), 30))
		if _, err := money.Parse(v); v != "" && err != nil {
			numeric = false
		}
	}
	c := datatable.Column[int32]{Key: strconv.Itoa(j), Title: title, Width: max(width, 3), Priority: 1000 - j, Text: cell}
	if numeric && len(t.rows) > 0 {
		c.Align = lipgloss.Right
	}
	return c
}

func (docp *documentPane) close() {
	docp.reads.Stop()
	docp.open, docp.loading, docp.got = false, false, nil
	docp.table = newCSVTable(nil, docp.km, docp.theme)
}

// update takes the pane's answers; ok is false for other messages.
func (docp *documentPane) update(msg tea.Msg) (tea.Cmd, bool) {
	m, mine := msg.(documentMsg)
	if !mine || !docp.reads.Owns(m.stamp) {
		return nil, false
	}
	if !docp.open || !docp.reads.Fresh(m.stamp) {
		return nil, true
	}
	docp.loading = false
	if m.data.err != nil && tab.Cancelled(m.data.err) {
		return nil, true
	}
	docp.got = m.data
	if m.data.csv != nil {
		docp.table = newCSVTable(m.data.csv, docp.km, docp.theme)
	}
	if m.data.csv == nil && m.data.text != nil {
		docp.asText = true
	}
	docp.layout()
	return nil, true
}

func (docp *documentPane) context() keys.Context { return keys.ContextViewer }

// available says what the pane's keys can do now.
func (docp *documentPane) available(a keys.Action) (bool, string) {
	switch a {
	case keys.ActDocuments, keys.ActNextMatch, keys.ActPrevMatch:
		return false, ""
	case keys.ActFilter:
		return false, "documents are not searched; save one (ctrl+s) to search it elsewhere"
	case keys.ActOpen:
		return false, "a document's rows open nothing"
	case keys.ActRaw:
		if docp.got == nil || docp.got.csv == nil {
			return false, "only a CSV has a table and a text view"
		}
	}
	return true, ""
}

// key handles a key while the pane is open.
func (docp *documentPane) key(msg tea.KeyPressMsg, avail keys.Availability) tea.Cmd {
	press, ok := docp.km.Resolve(msg, docp.context(), avail)
	switch {
	case !ok:
		return nil
	case !press.Enabled:
		return tab.RefusedKey(press)
	}
	switch a := press.Action; a {
	case keys.ActClose:
		if docp.asText && docp.got != nil && docp.got.csv != nil {
			docp.asText = false
		} else {
			docp.close()
		}
	case keys.ActRaw:
		docp.asText = !docp.asText
	case keys.ActExport:
		return docp.save(docp.doc, docp.got)
	case keys.ActCopyID:
		return tab.CopyID(docp.doc.ID)
	default:
		switch {
		case !tab.IsMove(a):
		case docp.asText && docp.got != nil:
			docp.textSc.Key(a, len(docp.got.text), tab.PaneBody(docp.h))
		default:
			docp.table, _ = docp.table.Update(msg)
		}
	}
	return nil
}

// mouse handles a mouse event over the pane (which fills the tab's area):
// the wheel scrolls the text or the table, a click selects a row of the
// table; a document's rows open nothing.
func (docp *documentPane) mouse(msg ui.MouseMsg) tea.Cmd {
	d := docp.got
	switch {
	case d == nil || d.err != nil:
	case docp.asText || d.csv == nil && d.text != nil:
		a := keys.ActDown
		switch msg.Kind {
		case ui.MouseWheelUp:
			a = keys.ActUp
		case ui.MouseWheelDown:
		default:
			return nil
		}
		for range datatable.WheelLines {
			docp.textSc.Key(a, len(d.text), tab.PaneBody(docp.h))
		}
	case d.csv != nil:
		docp.table = tableMouse(docp.table, msg.Shift(0, -len(docp.head())))
	}
	return nil
}

// save asks where to save a document, under its own name: the one
// downloaded (d) or, from the list, downloaded for the purpose.
func (docp *documentPane) save(doc backend.Document, d *documentData) tea.Cmd {
	spec := ui.SaveSpec{
		Title:       "Save document " + cleanName(doc.FileName),
		DefaultPath: ui.SafeFileName(doc.FileName, "document-"+doc.ID),
	}
	if d != nil && d.err == nil {
		data := d.content.Data
		spec.What = "the document as received, " + ui.HumanBytes(int64(len(data)))
		spec.Data = func(context.Context) ([]byte, error) { return data, nil }
	} else {
		src, id := docp.src, doc.ID
		spec.What = "the document as received (it is downloaded first)"
		spec.Data = func(ctx context.Context) ([]byte, error) {
			c, err := src.GetDocument(ctx, id)
			return c.Data, err
		}
	}
	return docp.dialogs.Open(ui.NewSave(spec, docp.km, docp.theme))
}

func (docp *documentPane) setSize(w, h int) {
	docp.w, docp.h = max(w, 0), max(h, 0)
	docp.layout()
}

func (docp *documentPane) layout() {
	docp.table.SetSize(docp.w, max(docp.h-len(docp.head()), 0))
}

// head is the pane's heading: the document, and what is wrong with it.
func (docp *documentPane) head() []string {
	th := docp.theme
	right := ""
	if docp.got != nil && docp.got.err == nil {
		right = textsafe.Line(docp.got.content.ContentType, 40) + " · " + ui.HumanBytes(int64(len(docp.got.content.Data)))
	}
	left := th.Title.Render("Document "+cleanName(docp.doc.FileName)) + th.Muted.Render(" · "+textsafe.Line(docp.doc.Description, 60))
	out := []string{spread(left, th.Muted.Render(right), docp.w)}
	switch {
	case docp.got == nil && docp.loading:
		out = append(out, th.Muted.Render("downloading…"))
	case docp.got == nil:
	case docp.got.err != nil:
		out = append(out, th.Danger.Render(tab.Fit("✗ Could not download it: "+tab.ErrText(docp.got.err), docp.w)))
		if h := tab.HintOf(docp.got.err); h != "" {
			out = append(out, th.Muted.Render(tab.Fit("  "+h, docp.w)))
		}
	case docp.got.csvErr != nil:
		out = append(out, th.Warning.Render(tab.Fit("The CSV cannot be read as a table ("+tab.ErrText(docp.got.csvErr)+
			"); its text is shown", docp.w)))
	case docp.got.csv != nil && docp.got.csv.truncated:
		out = append(out, th.Warning.Render(tab.Fit("The table shows the first "+money.Count(maxCSVRows)+
			" rows; w shows all the text, ctrl+s saves the file", docp.w)))
	}
	return out
}

// lines draws the pane.
func (docp *documentPane) lines() []string {
	head := docp.head()
	d := docp.got
	switch {
	case d == nil || d.err != nil:
		return head
	case docp.asText || d.csv == nil && d.text != nil:
		title := "As text"
		if d.csv != nil {
			title = "As text (" + tab.KeyName(docp.km, keys.ActRaw, "w") + ": the table)"
		}
		rest := docp.textSc.Render(docp.theme, title, d.text, docp.w, max(docp.h-len(head), 0), false)
		return append(head, rest...)
	case d.csv != nil:
		return append(head, strings.Split(docp.table.View(), "\n")...)
	}
	f := &tab.Fields{Theme: docp.theme, LabelW: 12}
	f.Add("File", cleanName(docp.doc.FileName))
	f.Add("Description", textsafe.Line(docp.doc.Description, 200))
	f.Add("Created", tab.FmtTime(docp.doc.Created))
	f.Add("Type", textsafe.Line(d.content.ContentType, 80))
	f.Add("Size", ui.HumanBytes(int64(len(d.content.Data))))
	f.Add("ID", textsafe.Clean(docp.doc.ID))
	f.Line("")
	f.Line(docp.theme.Muted.Render("paydash shows text documents only; " + tab.KeyName(docp.km, keys.ActExport, "ctrl+s") +
		" saves this one as " + ui.SafeFileName(docp.doc.FileName, "document-"+docp.doc.ID)))
	return append(head, f.Lines...)
}
