package ui

import "time"

// The period presets of the period chooser ("p"), as Scope.Preset spells them.
const (
	PresetToday  = "today"
	Preset7Days  = "7 days"
	Preset30Days = "30 days"
	PresetCustom = "custom"
)

// presetLead is how far past now a preset period ends. A preset period is
// computed again at every refresh from the service's clock (At), so the
// lead only covers what that clock's estimate may lag behind the service
// (its Date header counts whole seconds) and a payment made between the
// refresh's first and last page.
const presetLead = time.Minute

// PresetScope is the scope of a period preset for a merchant, computed at now
// in now's location (local time in the app): "today" starts at today's
// midnight, "7 days" at the midnight six days before (today and the six days
// before it), "30 days" at the midnight 29 days before. Each ends a minute
// after now (presetLead). An unknown preset gives "7 days".
func PresetScope(merchantID, preset string, now time.Time) Scope {
	today := midnight(now)
	var start time.Time
	switch preset {
	case PresetToday:
		start = today
	case Preset30Days:
		start = today.AddDate(0, 0, -29)
	default:
		preset = Preset7Days
		start = today.AddDate(0, 0, -6)
	}
	return Scope{MerchantID: merchantID, Start: start, End: now.Add(presetLead), Preset: preset}
}

// CustomScope is the scope of whole days from from's day to to's day, both
// included, in their location: [from's midnight, the midnight after to).
func CustomScope(merchantID string, from, to time.Time) Scope {
	return Scope{
		MerchantID: merchantID,
		Start:      midnight(from),
		End:        midnight(to).AddDate(0, 0, 1),
		Preset:     PresetCustom,
	}
}

func midnight(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// Rolling reports whether the period is relative to now (a preset): its
// end is now at every refresh and its start moves with it. A custom
// period (whole days chosen by date) stays where it was put.
func (s Scope) Rolling() bool {
	switch s.Preset {
	case PresetToday, Preset7Days, Preset30Days:
		return true
	}
	return false
}

// At is the scope at now: a rolling period computed again for now (in
// now's location), any other unchanged.
func (s Scope) At(now time.Time) Scope {
	if !s.Rolling() || now.IsZero() {
		return s
	}
	return PresetScope(s.MerchantID, s.Preset, now)
}

// Kind is what the status bar says of the period: "rolling" for a preset,
// which follows the service's clock, "fixed" for chosen days.
func (s Scope) Kind() string {
	if s.Rolling() {
		return "rolling"
	}
	return "fixed"
}
