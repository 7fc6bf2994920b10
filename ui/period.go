package ui

import "time"

// The period presets of the period chooser ("p"), as Scope.Preset spells them.
const (
	PresetToday  = "today"
	Preset7Days  = "7 days"
	Preset30Days = "30 days"
	PresetCustom = "custom"
)

// presetLead is how far past now a preset period ends, so that payments made
// after the period was chosen still fall inside it.
const presetLead = time.Hour

// PresetScope is the scope of a period preset for a merchant, computed at now
// in now's location (local time in the app): "today" starts at today's
// midnight, "7 days" at the midnight six days before (today and the six days
// before it), "30 days" at the midnight 29 days before. Each ends one hour
// after now, so fresh payments show. An unknown preset gives "7 days".
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
