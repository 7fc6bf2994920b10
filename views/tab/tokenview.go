package tab

import (
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/known"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/ui"
)

// TokenView is a token as the tab shows it: what paydash remembers of it,
// and what the service said when the pane last read it (nil until then).
type TokenView struct {
	known.Token
	Read *backend.Token
}

// NewestStatus is the newest status known: the service's when read.
func (v TokenView) NewestStatus() backend.TokenStatus {
	if v.Read != nil && v.Read.Status != "" {
		return v.Read.Status
	}
	return v.Status
}

// TokenStatusText is the status with a marker that reads without colour.
func TokenStatusText(s backend.TokenStatus) string {
	m := " "
	switch s {
	case backend.TokenActive:
		m = "✓"
	case backend.TokenCreated:
		m = "~"
	case backend.TokenRevoked:
		m = "✗"
	case backend.TokenDeclined:
		m = "-"
	case "":
		return "? unknown"
	}
	return m + " " + textsafe.Clean(string(s))
}

func TokenStatusStyle(th ui.Theme, s backend.TokenStatus) func(...string) string {
	switch s {
	case backend.TokenActive:
		return th.Success.Render
	case backend.TokenCreated:
		return th.Warning.Render
	case backend.TokenRevoked, backend.TokenDeclined:
		return th.Danger.Render
	}
	return th.Text.Render
}

// FmtExpiry is a card's expiry as printed on it: "12/2029".
func FmtExpiry(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("01/2006")
}

// --- revoke, shared with the Payments tab's pane -----------------------------------

// MayRevoke says whether token id, whose status is st as last known, can
// be revoked now.
func MayRevoke(src capable, d Deps, acts *Tracker, id string, st backend.TokenStatus) (bool, string) {
	if ok, why := MayAct(src, d.Journal, backend.ActionRevokeToken); !ok {
		return false, why
	}
	if tr := acts.On(TokenRef(id)); tr != nil {
		return false, tr.BusyReason()
	}
	if st == backend.TokenRevoked {
		return false, "token " + textsafe.Clean(id) + " is already revoked"
	}
	return true, ""
}

// RevokeSpec is the confirmation of revoking tok; payments are those
// known to use it, and from the payment the user came from ("" when none).
func RevokeSpec(tok backend.Token, payments []string, from string, acts *Tracker) ui.ConfirmSpec {
	c := textsafe.Clean
	id := c(tok.ID)
	title := c(tok.Title)
	if title == "" {
		title = "card not named"
	}
	lines := []string{"Token " + id + " · " + title}
	if e := FmtExpiry(tok.Expires); e != "" {
		lines[0] += " · expires " + e
	}
	if from != "" {
		lines = append(lines, "Used by payment "+c(from))
	}
	if n := len(payments); n > 0 {
		shown := payments[:min(n, 3)]
		s := "Payments known to use it: " + strconv.Itoa(n) + " (" + c(strings.Join(shown, ", "))
		if n > len(shown) {
			s += ", …"
		}
		lines = append(lines, s+")")
	}
	lines = append(lines,
		"Now: "+TokenStatusText(tok.Status)+" → after: Revoked",
		"The customer's saved card can no longer be charged. This cannot be undone.",
		"Sent through: v2 (the current interface)")
	tokID := tok.ID
	return ui.ConfirmSpec{
		Title:    "Revoke token " + id,
		Lines:    lines,
		Verb:     "Revoke",
		Danger:   true,
		Confirm:  func(money.Amount) tea.Cmd { return acts.Send(action.NewRevoke(tokID, backend.V2)) },
		Approval: acts.ApprovalNote(backend.ActionRevokeToken),
	}
}
