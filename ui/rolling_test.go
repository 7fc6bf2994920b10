package ui

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/keys"
)

// serviceClock is the service's clock as the tests move it: another than
// the shell's own, as when the sandbox's clock was moved on.
type serviceClock struct{ t time.Time }

func (c *serviceClock) Now() time.Time { return c.t }

func withServiceClock(c *serviceClock) option {
	return func(cfg *Config) { cfg.ServiceNow = c.Now }
}

// A preset period ends at the service's now at every refresh, whatever the
// clock here says; the status bar says it rolls.
func TestARollingPeriodEndsAtTheServicesNowAtEveryRefresh(t *testing.T) {
	svc := &serviceClock{t: t0}
	ta := newTestApp(t, withServiceClock(svc))
	require.True(t, ta.scope.Rolling())
	assert.Contains(t, statusLine(ta), "7 days→now")

	svc.t = t0.Add(70 * time.Minute) // POST /_sandbox/clock/advance 70m
	ta.press("r")
	got := msgsOf[RefreshMsg](ta.tabs[0])
	require.Len(t, got, 1)
	assert.Equal(t, svc.t, got[0].Now, "the tab is told the service's now")
	assert.Equal(t, svc.t.Add(presetLead), ta.scope.End, "the shell's period ends at it")
	assert.Equal(t, time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC), ta.scope.Start)

	// The periodic refresh does the same, on the shell's own clock.
	svc.t = t0.Add(2 * time.Hour)
	ta.clock.advance(10 * time.Second)
	ta.tick()
	got = msgsOf[RefreshMsg](ta.tabs[0])
	require.Len(t, got, 2)
	assert.Equal(t, svc.t, got[1].Now)
	assert.Equal(t, svc.t.Add(presetLead), ta.scope.End)
}

// A period of chosen days does not move, and the status bar shows its dates.
func TestAFixedPeriodStaysWhereItWasPut(t *testing.T) {
	svc := &serviceClock{t: t0}
	ta := newTestApp(t, withServiceClock(svc))
	fixed := CustomScope("10000001", time.Date(2026, 11, 12, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 19, 0, 0, 0, 0, time.UTC))
	ta.send(ScopeMsg{Scope: fixed})
	svc.t = t0.Add(48 * time.Hour)
	ta.press("r")
	assert.Equal(t, fixed, ta.scope)
	assert.Contains(t, statusLine(ta), "2026-11-12…2026-11-19")
	assert.NotContains(t, statusLine(ta), "→now")
}

// A preset chosen in the period chooser is computed on the service's
// clock, not this machine's; so is the start when the first answer shows
// the clock here is a day off.
func TestPresetsAreComputedOnTheServicesClock(t *testing.T) {
	svc := &serviceClock{t: t0.Add(26 * time.Hour)} // the service is a day ahead
	ta := newTestApp(t, withServiceClock(svc))
	// The probe's answer came (newTestApp): the rolling period started again.
	assert.Equal(t, time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC), ta.scope.Start)

	ta.press("p", "k", "enter") // today
	got := msgsOf[ScopeMsg](ta.tabs[0])
	require.NotEmpty(t, got)
	s := got[len(got)-1].Scope
	assert.Equal(t, PresetToday, s.Preset)
	assert.Equal(t, time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), s.Start, "the service's today")
	assert.Equal(t, svc.t.Add(presetLead), s.End)
}

// When the first answer shows the service's clock ahead of the one here
// by more than the period's lead, the tabs load again up to the service's
// now, so the first screen has the newest rows on top (not "↑ N new");
// clocks that agree within the lead change nothing.
func TestTheFirstAnswerMovesTheEndOfARollingPeriod(t *testing.T) {
	svc := &serviceClock{t: t0.Add(70 * time.Minute)}
	clock := &fakeClock{t: t0}
	cfg := Config{Scope: PresetScope("10000001", Preset7Days, t0), Now: clock.Now, ServiceNow: svc.Now,
		Keys: keys.Default(), NoColor: true, Dark: true, Service: sandboxBackend()}
	tab := newFakeTab("Payments")
	cfg.Tabs = []Tab{tab}
	app := New(cfg)
	app.loc = time.UTC
	app.Init()
	tab.reset()
	app.Update(probeDoneMsg{})
	got := msgsOf[ScopeMsg](tab)
	require.Len(t, got, 1, "the tabs load again")
	assert.Equal(t, svc.t.Add(presetLead), got[0].Scope.End)
	assert.Equal(t, time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC), got[0].Scope.Start, "the same days")

	svc.t = t0.Add(30 * time.Second) // within the lead
	app2 := New(cfg)
	app2.loc = time.UTC
	app2.Init()
	tab.reset()
	app2.Update(probeDoneMsg{})
	assert.Empty(t, msgsOf[ScopeMsg](tab), "nothing to load again")
	assert.Empty(t, msgsOf[RefreshMsg](tab))
}
