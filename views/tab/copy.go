package tab

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
)

// Copy more than the id: Y opens a chooser of the fields of the
// object y would copy the id of (the pane's, else the selected row's), each
// shown with its value; only the fields that have one are offered. The
// chooser (ui.NewCopyChooser) copies what is chosen itself and says so.

// CopyMore opens the chooser over the fields of what ("payment 43149010");
// when none has a value it says so instead.
func CopyMore(km keys.Map, th ui.Theme, dialogs *DialogSlot, what string, fields []ui.CopyField) tea.Cmd {
	what = textsafe.Line(what, 80)
	if len(ui.CopyFields(fields)) == 0 {
		return ToastCmd(ui.ToastInfo, "nothing to copy from "+what+" but its id")
	}
	return dialogs.Open(ui.NewCopyChooser("Copy from "+what, fields, km, th))
}

// SummaryTime is a time in a one-line summary: UTC, so that it means the
// same wherever it is pasted.
func SummaryTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("02 Jan 2006 15:04") + " UTC"
}

// Summary joins the parts that have a value with " · ".
func Summary(parts ...string) string {
	kept := parts[:0]
	for _, p := range parts {
		if p = strings.TrimSpace(textsafe.Clean(p)); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, " · ")
}

// IfSet is prefix+v, or "" when v is empty.
func IfSet(prefix, v string) string {
	if strings.TrimSpace(v) == "" {
		return ""
	}
	return prefix + v
}

// Customer is what the service knows of a payment's customer: the e-mail
// (or another identifier the merchant gave) and the phone, from the legacy
// interface's view of it.
func Customer(p backend.Payment) (id, phone string) {
	if p.V1 == nil {
		return "", ""
	}
	return p.V1.UserIdentifier, p.V1.UserPhoneNumber
}
