package forms

import (
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/ui"
)

// A fixed clock in Moscow time (UTC+3, no DST), so that local and UTC differ.
var (
	msk      = time.FixedZone("MSK", 3*60*60)
	fixedNow = time.Date(2026, 11, 21, 12, 0, 0, 0, msk)
)

// clock is a settable clock for a form's Defaults.Now.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func defaults(c *clock, noColor bool) Defaults {
	if c == nil {
		c = &clock{t: fixedNow}
	}
	return Defaults{MerchantID: "m-100", Now: c.now, Theme: ui.NewTheme(true, noColor)}
}

// blinkCode is the code of the cursor's blink command, which waits half a
// second for its timer: the driver does not run it.
var blinkCode = func() uintptr {
	c := cursor.New()
	return reflect.ValueOf(c.Blink()).Pointer()
}()

func TestMain(m *testing.M) {
	skipCmd = func(c tea.Cmd) bool { return reflect.ValueOf(c).Pointer() == blinkCode }
	m.Run()
}

// No command the driver runs waits on a timer (the blink is dropped), so
// no test here sleeps on the wall clock. Inside a synctest bubble a wait
// moves the bubble's own clock: the clock standing still through a whole
// walk shows that nothing waited.
func TestDrivingWaitsOnNoTimer(t *testing.T) {
	for name, w := range walks {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				f := w.make(defaults(nil, true))
				d := drive(t, f)
				for _, fill := range w.pages {
					fill(d)
				}
				require.Equal(t, Submitted, f.State())
				assert.Zero(t, time.Since(start), "a command waited")
			})
		})
	}
}

// driver sends messages to a form the way the runtime would: it runs the
// commands the form returns and sends their messages back, until none are
// left.
type driver struct {
	t     *testing.T
	f     *Form
	check func(Msg) // when set, sees every message of the form before it goes back
	w, h  int       // the size the form is drawn at
	// forRuntime are the messages the form's commands give the runtime
	// itself (not the form's), in order.
	forRuntime []tea.Msg
}

func drive(t *testing.T, f *Form) *driver {
	t.Helper()
	return driveAt(t, f, 74, 18)
}

// driveAt is drive with the form drawn at w×h.
func driveAt(t *testing.T, f *Form, w, h int) *driver {
	t.Helper()
	d := &driver{t: t, f: f, w: w, h: h}
	d.run(f.Init())
	f.View(w, h)
	return d
}

func (d *driver) send(msg tea.Msg) *driver {
	d.t.Helper()
	d.run(d.f.Update(msg))
	d.f.View(d.w, d.h) // the runtime draws after every update
	return d
}

// resize draws the form at w×h from now on, as the runtime does after the
// window changed.
func (d *driver) resize(w, h int) *driver {
	d.w, d.h = w, h
	d.f.View(w, h)
	return d
}

// run executes cmd and everything it leads to, in order. Sequences and
// batches are run one command after the other, which is an order the
// runtime could also choose.
func (d *driver) run(cmd tea.Cmd) {
	d.t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10000 {
			d.t.Fatal("the form's commands do not settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		switch m := msg.(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, m...)
		case Msg:
			if d.check != nil {
				d.check(m)
			}
			queue = append(queue, d.f.Update(m))
		default:
			if cmds, ok := sequence(msg); ok {
				queue = append(queue, cmds...)
			} else {
				d.forRuntime = append(d.forRuntime, msg)
			}
		}
	}
}

// typ types s one key at a time.
func (d *driver) typ(s string) *driver {
	d.t.Helper()
	for _, r := range s {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return d
}

func (d *driver) key(code rune, mod ...tea.KeyMod) *driver {
	d.t.Helper()
	k := tea.KeyPressMsg{Code: code}
	for _, m := range mod {
		k.Mod |= m
	}
	return d.send(k)
}

func (d *driver) enter() *driver     { return d.key(tea.KeyEnter) }
func (d *driver) tab() *driver       { return d.key(tea.KeyTab) }
func (d *driver) backtab() *driver   { return d.key(tea.KeyTab, tea.ModShift) }
func (d *driver) esc() *driver       { return d.key(tea.KeyEscape) }
func (d *driver) right() *driver     { return d.key(tea.KeyRight) }
func (d *driver) backspace() *driver { return d.key(tea.KeyBackspace) }

// field types s into the focused field and presses enter.
func (d *driver) field(s string) *driver {
	d.t.Helper()
	return d.typ(s).enter()
}

// screen is the plain text of the form at the dialog's size.
func (d *driver) screen() string { return plain(d.f.View(d.w, d.h)) }

func plain(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// focusedKey is the key of the focused field.
func (d *driver) focusedKey() string { return keyOf(d.f.focused()) }
