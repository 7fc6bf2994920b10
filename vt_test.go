package main

import (
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
)

// vt is a small terminal emulator for the end-to-end test: it keeps the
// text of a screen from the output of a program, so that the test can look
// at the screen as the user would see it. Bubble Tea's renderer only
// redraws what changed, with cursor moves, erases, inserts, deletes and
// scrolls, so searching the raw stream for a word does not work. Colours and
// other attributes are dropped; what the renderer emits for xterm-256color
// is understood.
type vt struct {
	mu          sync.Mutex
	w, h        int
	cells       [][]string // one grapheme per cell; "" continues a wide one to its left
	x, y        int
	pendingWrap bool
	autowrap    bool
	insert      bool
	altScreen   bool // the program switched to the alternate screen and has not left it
	top, bot    int  // scroll region, inclusive
	saveX       int
	saveY       int
	last        string // last printed grapheme, for REP

	state   byte
	p       *ansi.Parser
	pending []byte
	total   int           // bytes fed
	changed chan struct{} // closed by the next Write, then replaced
}

func newVT(w, h int) *vt {
	v := &vt{w: w, h: h, p: ansi.NewParser(), changed: make(chan struct{})}
	v.reset()
	return v
}

func (v *vt) reset() {
	v.cells = make([][]string, v.h)
	for i := range v.cells {
		v.cells[i] = blankLine(v.w)
	}
	v.x, v.y, v.pendingWrap, v.autowrap, v.insert = 0, 0, false, true, false
	v.top, v.bot = 0, v.h-1
}

func blankLine(w int) []string {
	l := make([]string, w)
	for i := range l {
		l[i] = " "
	}
	return l
}

// Write feeds program output; it never fails.
func (v *vt) Write(b []byte) (int, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.total += len(b)
	defer v.announce()
	buf := append(v.pending, b...)
	v.pending = nil
	for len(buf) > 0 {
		seq, width, n, state := ansi.DecodeSequence(buf, v.state, v.p)
		if n == len(buf) && (state != ansi.NormalState || (width > 0 && !utf8.FullRune(lastRuneStart(seq)))) {
			// An incomplete sequence or character: wait for the rest.
			v.pending = append([]byte(nil), buf...)
			v.state = 0
			return len(b), nil
		}
		v.state = ansi.NormalState
		v.handle(seq, width)
		buf = buf[n:]
	}
	return len(b), nil
}

func lastRuneStart(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-4; i-- {
		if utf8.RuneStart(b[i]) {
			return b[i:]
		}
	}
	return b
}

// Screen is the text on the screen, one line per row, trailing blanks cut.
func (v *vt) Screen() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	var sb strings.Builder
	for i, row := range v.cells {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(strings.TrimRight(strings.Join(row, ""), " "))
	}
	return sb.String()
}

// AltScreen tells whether the alternate screen is on.
func (v *vt) AltScreen() bool { v.mu.Lock(); defer v.mu.Unlock(); return v.altScreen }

// Bytes is how much output has been fed so far.
func (v *vt) Bytes() int { v.mu.Lock(); defer v.mu.Unlock(); return v.total }

// Changed is closed by the next Write: a test takes it, reads the screen,
// and waits on it for output that may change what it read, without
// polling (take it before reading the screen, so that no write is missed).
func (v *vt) Changed() <-chan struct{} { v.mu.Lock(); defer v.mu.Unlock(); return v.changed }

// announce wakes whoever waits on Changed (v.mu held).
func (v *vt) announce() {
	close(v.changed)
	v.changed = make(chan struct{})
}

func (v *vt) handle(seq []byte, width int) {
	if len(seq) == 0 {
		return
	}
	c := seq[0]
	switch {
	case width > 0:
		v.print(string(seq), width)
	case c == ansi.ESC && len(seq) > 1 && (seq[1] == '[' || seq[1] == 'P' || seq[1] == ']' || seq[1] == '_' || seq[1] == '^' || seq[1] == 'X'):
		if seq[1] == '[' {
			v.csi(ansi.Cmd(v.p.Command()), v.p.Params())
		}
	case c == ansi.CSI:
		v.csi(ansi.Cmd(v.p.Command()), v.p.Params())
	case c == ansi.ESC:
		v.esc(ansi.Cmd(v.p.Command()))
	default:
		v.control(c)
	}
}

func (v *vt) control(c byte) {
	switch c {
	case '\r':
		v.x, v.pendingWrap = 0, false
	case '\n', '\v', '\f':
		v.lineFeed()
	case '\b':
		if v.x > 0 {
			v.x--
		}
		v.pendingWrap = false
	case '\t':
		v.tab(1)
	}
}

func (v *vt) esc(cmd ansi.Cmd) {
	if cmd.Intermediate() != 0 {
		return // charsets and the like
	}
	switch cmd.Final() {
	case 'M': // RI
		if v.y == v.top {
			v.scrollDown(1)
		} else if v.y > 0 {
			v.y--
		}
	case 'D': // IND
		v.lineFeed()
	case 'E': // NEL
		v.x = 0
		v.lineFeed()
	case '7':
		v.saveX, v.saveY = v.x, v.y
	case '8':
		v.x, v.y, v.pendingWrap = v.saveX, v.saveY, false
	case 'c':
		v.reset()
	}
}

func (v *vt) csi(cmd ansi.Cmd, params ansi.Params) {
	n := func(i, def int) int {
		p, _, _ := params.Param(i, def)
		if p == 0 && def > 0 {
			return def
		}
		return p
	}
	if cmd.Intermediate() != 0 {
		return // DECRQM, DECSCUSR and the like
	}
	switch cmd.Prefix() {
	case '?':
		on := cmd.Final() == 'h'
		if cmd.Final() != 'h' && cmd.Final() != 'l' {
			return
		}
		for i := range params {
			switch params[i].Param(0) {
			case 7:
				v.autowrap = on
			case 47, 1047, 1049:
				v.reset()
				v.altScreen = on
			}
		}
		return
	case 0:
	default:
		return
	}
	v.pendingWrap = false
	switch cmd.Final() {
	case 'A':
		v.y = max(v.y-n(0, 1), 0)
	case 'B', 'e':
		v.y = min(v.y+n(0, 1), v.h-1)
	case 'C', 'a':
		v.x = min(v.x+n(0, 1), v.w-1)
	case 'D':
		v.x = max(v.x-n(0, 1), 0)
	case 'E':
		v.x, v.y = 0, min(v.y+n(0, 1), v.h-1)
	case 'F':
		v.x, v.y = 0, max(v.y-n(0, 1), 0)
	case 'G', '`':
		v.x = clamp(n(0, 1)-1, 0, v.w-1)
	case 'd':
		v.y = clamp(n(0, 1)-1, 0, v.h-1)
	case 'H', 'f':
		v.y, v.x = clamp(n(0, 1)-1, 0, v.h-1), clamp(n(1, 1)-1, 0, v.w-1)
	case 'J':
		switch n(0, 0) {
		case 0:
			v.eraseLine(v.y, v.x, v.w)
			for y := v.y + 1; y < v.h; y++ {
				v.cells[y] = blankLine(v.w)
			}
		case 1:
			v.eraseLine(v.y, 0, v.x+1)
			for y := 0; y < v.y; y++ {
				v.cells[y] = blankLine(v.w)
			}
		default:
			for y := range v.cells {
				v.cells[y] = blankLine(v.w)
			}
		}
	case 'K':
		switch n(0, 0) {
		case 0:
			v.eraseLine(v.y, v.x, v.w)
		case 1:
			v.eraseLine(v.y, 0, v.x+1)
		default:
			v.eraseLine(v.y, 0, v.w)
		}
	case 'X':
		v.eraseLine(v.y, v.x, v.x+n(0, 1))
	case 'b':
		for range n(0, 1) {
			if v.last != "" {
				v.print(v.last, ansi.StringWidth(v.last))
			}
		}
	case '@':
		k := min(n(0, 1), v.w-v.x)
		row := v.cells[v.y]
		copy(row[v.x+k:], row[v.x:v.w-k])
		for i := v.x; i < v.x+k; i++ {
			row[i] = " "
		}
	case 'P':
		k := min(n(0, 1), v.w-v.x)
		row := v.cells[v.y]
		copy(row[v.x:], row[v.x+k:])
		for i := v.w - k; i < v.w; i++ {
			row[i] = " "
		}
	case 'L':
		if v.y >= v.top && v.y <= v.bot {
			v.scrollRegionDown(v.y, v.bot, n(0, 1))
			v.x = 0
		}
	case 'M':
		if v.y >= v.top && v.y <= v.bot {
			v.scrollRegionUp(v.y, v.bot, n(0, 1))
			v.x = 0
		}
	case 'S':
		v.scrollUp(n(0, 1))
	case 'T':
		v.scrollDown(n(0, 1))
	case 'r':
		top, bot := n(0, 1)-1, n(1, v.h)-1
		if top < bot && bot < v.h {
			v.top, v.bot = top, bot
		} else {
			v.top, v.bot = 0, v.h-1
		}
		v.x, v.y = 0, 0
	case 'I':
		v.tab(n(0, 1))
	case 'Z':
		for range n(0, 1) {
			v.x = max((v.x-1)/8*8, 0)
		}
	case 'h', 'l':
		for i := range params {
			if params[i].Param(0) == 4 {
				v.insert = cmd.Final() == 'h'
			}
		}
	}
}

func clamp(a, lo, hi int) int { return max(lo, min(a, hi)) }

func (v *vt) tab(k int) {
	for range k {
		v.x = min((v.x/8+1)*8, v.w-1)
	}
	v.pendingWrap = false
}

func (v *vt) eraseLine(y, from, to int) {
	for i := max(from, 0); i < min(to, v.w); i++ {
		v.cells[y][i] = " "
	}
}

func (v *vt) print(g string, width int) {
	if v.pendingWrap && v.autowrap {
		v.x = 0
		v.lineFeed()
	}
	v.pendingWrap = false
	if width > 1 && v.x+width > v.w {
		if !v.autowrap {
			return
		}
		v.x = 0
		v.lineFeed()
	}
	row := v.cells[v.y]
	if v.insert {
		copy(row[v.x+width:], row[v.x:v.w-width])
	}
	row[v.x] = g
	for i := 1; i < width && v.x+i < v.w; i++ {
		row[v.x+i] = ""
	}
	v.last = g
	v.x += width
	if v.x >= v.w {
		v.x = v.w - 1
		v.pendingWrap = v.autowrap
	}
}

func (v *vt) lineFeed() {
	switch {
	case v.y == v.bot:
		v.scrollUp(1)
	case v.y < v.h-1:
		v.y++
	}
}

// scrollUp moves the scroll region's lines up by k, blank lines coming in
// at its bottom (SU, or a line feed on its last line).
func (v *vt) scrollUp(k int)   { v.scrollRegionUp(v.top, v.bot, k) }
func (v *vt) scrollDown(k int) { v.scrollRegionDown(v.top, v.bot, k) }

func (v *vt) scrollRegionUp(top, bot, k int) {
	k = min(k, bot-top+1)
	copy(v.cells[top:bot+1], v.cells[top+k:bot+1])
	for y := bot - k + 1; y <= bot; y++ {
		v.cells[y] = blankLine(v.w)
	}
}

func (v *vt) scrollRegionDown(top, bot, k int) {
	k = min(k, bot-top+1)
	copy(v.cells[top+k:bot+1], v.cells[top:bot+1-k])
	for y := top; y < top+k; y++ {
		v.cells[y] = blankLine(v.w)
	}
}

func TestVTEmulatesWhatTheRendererSends(t *testing.T) {
	v := newVT(10, 4)
	w := func(s string) { _, _ = v.Write([]byte(s)) }
	w("\x1b[?1049h\x1b[H\x1b[2Jhello\r\nworld")
	assert.Equal(t, "hello\nworld\n\n", v.Screen())

	w("\x1b[1;3HY\x1b[2;1H\x1b[K\x1b[31mab\x1b[0m")
	assert.Equal(t, "heYlo\nab\n\n", v.Screen(), "cursor position, erase to the end, colours dropped")

	w("\x1b[4;1Hx\x1b[3b") // REP
	assert.Equal(t, "heYlo\nab\n\nxxxx", v.Screen())

	w("\x1b[1;1H\x1b[2P") // DCH
	assert.Equal(t, "Ylo\nab\n\nxxxx", v.Screen())
	w("\x1b[1;1H\x1b[2@") // ICH
	assert.Equal(t, "  Ylo\nab\n\nxxxx", v.Screen())
	w("\x1b[1;1H\x1b[3X") // ECH
	assert.Equal(t, "   lo\nab\n\nxxxx", v.Screen())

	w("\x1b[2;1H\x1b[L") // IL pushes line 2 down
	assert.Equal(t, "   lo\n\nab\n", v.Screen())
	w("\x1b[2;1H\x1b[M") // DL pulls it back
	assert.Equal(t, "   lo\nab\n\n", v.Screen())

	w("\x1b[1;4r\x1b[S\x1b[r") // SU in a region
	assert.Equal(t, "ab\n\n\n", v.Screen())
	w("\x1b[H\x1bM") // RI at the top scrolls down
	assert.Equal(t, "\nab\n\n", v.Screen())

	// Wide characters, partial sequences and characters split across writes.
	v = newVT(10, 2)
	w("\x1b[")
	w("2;3H界")
	w("\xe2\x94")
	w("\x80x")
	assert.Equal(t, "\n  界─x", v.Screen())

	// Autowrap: the last column waits for the next character to wrap.
	v = newVT(4, 2)
	w("abcd")
	assert.Equal(t, "abcd\n", v.Screen())
	w("e")
	assert.Equal(t, "abcd\ne", v.Screen())
	w("\x1b[?7l\x1b[1;1Hwxyz!")
	assert.Equal(t, "wxy!\ne", v.Screen(), "without autowrap the last column is overwritten")
}

func TestVTChangedIsClosedByTheNextWrite(t *testing.T) {
	v := newVT(4, 2)
	changed := v.Changed()
	select {
	case <-changed:
		t.Fatal("closed before any write")
	default:
	}
	_, _ = v.Write([]byte("a"))
	select {
	case <-changed:
	default:
		t.Fatal("a write does not close the channel taken before it")
	}
	select {
	case <-v.Changed():
		t.Fatal("the next channel is already closed")
	default:
	}
}

// waitQuiet waits until nothing was written to the screen for d, at most
// limit in all.
func (v *vt) waitQuiet(d, limit time.Duration) {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for {
		changed := v.Changed()
		select {
		case <-changed:
		case <-time.After(d):
			return
		case <-deadline.C:
			return
		}
	}
}
