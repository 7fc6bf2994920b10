package ui

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"paydash/backend/textsafe"
	"paydash/keys"
)

// preparingModal is the dialog that appears the moment an action key is
// pressed (docs/architecture.md), while the tab reads what the confirmation
// will name. It takes every key until the confirmation replaces it, so that
// keys typed meanwhile cannot reach the list (or open a second dialog); it
// keeps them, and the confirmation that replaces it counts them as ignored
// (saying so in words when they would have changed the amount). esc gives
// up: the shell tells the tab (CancelActionMsg), which cancels its read.
type preparingModal struct {
	ticket int
	tab    int // the tab asked to prepare it: esc tells it (CancelActionMsg)
	title  string
	held   []tea.Msg // the keys and pastes it took, oldest first (at most maxHeld)
	extra  int       // those beyond maxHeld: counted, not kept
	km     keys.Map
	th     Theme
	frame  func() string // the shell's spinner
}

// targetNamer is a tab that names what an action key would act on, for
// the preparing dialog's title ("Refund payment 43149010").
type targetNamer interface {
	ActionTarget(action keys.Action) string
}

func newPreparing(ticket, tab int, title string, km keys.Map, th Theme, frame func() string) *preparingModal {
	return &preparingModal{ticket: ticket, tab: tab, title: textsafe.Line(title, 120), km: km, th: th, frame: frame}
}

func (p *preparingModal) Context() keys.Context { return keys.ContextModal }

// maxHeld bounds the keys kept: a key held down for minutes is counted,
// not kept.
const maxHeld = 256

func (p *preparingModal) ignore(msg tea.Msg, _ string) {
	if len(p.held) < maxHeld {
		p.held = append(p.held, msg)
	} else {
		p.extra++
	}
}

func (p *preparingModal) Update(msg tea.Msg, _ time.Time) (Modal, tea.Cmd, bool) {
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		if keys.Matches(m, p.giveUp()) {
			return p, nil, true
		}
		p.ignore(m, "")
	case tea.PasteMsg:
		p.ignore(m, "")
	}
	return p, nil, false
}

// giveUp is the key that closes the dialog: the modal's cancel keys that
// do not type text (esc), since n may be part of what was typed ahead.
func (p *preparingModal) giveUp() key.Binding {
	return key.NewBinding(key.WithKeys(p.giveUpKeys()...))
}

func (p *preparingModal) giveUpKeys() []string {
	if ks := untyped(p.km.Modal.Cancel.Keys()); len(ks) > 0 {
		return ks
	}
	return []string{"esc"}
}

func (p *preparingModal) helpLine(width int) string {
	return helpLine(p.th, width, [2]string{keys.Label(p.giveUpKeys()), "give up"},
		[2]string{"ctrl+c", "quit"})
}

func (p *preparingModal) View(maxWidth, _ int) string {
	th := p.th
	inner := max(min(maxWidth-boxFrame, 56), 10)
	spin := "…"
	if p.frame != nil {
		spin = p.frame()
	}
	lines := []string{
		th.Title.Render(p.title),
		"",
		th.Accent.Render(spin) + " " + th.Text.Render("reading the latest state from the service"),
		"",
	}
	wait := "Keys wait here until the dialog is ready."
	if n := len(p.held) + p.extra; n > 0 {
		wait = fmt.Sprintf("Keys wait here until the dialog is ready (%d ignored).", n)
	}
	lines = append(lines, wrapStyled(th.Muted, wait, inner)...)
	lines = append(lines, th.Muted.Render(keys.Label(p.giveUpKeys())+" gives up"))
	for i, l := range lines {
		lines[i] = fitTail(l, inner)
	}
	return box(th, lines)
}

// ignoredKeys implements the shell's ignoredCounter: every key it holds
// is one the dialog did not act on.
func (p *preparingModal) ignoredKeys() (int, string) {
	return len(p.held) + p.extra, "the dialog was being prepared"
}
