package views

import (
	"cmp"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/known"
)

// tokenMemo is the tokens paydash knows (backend/known) for the service
// it is connected to: noted by the Payments tab from the payments it reads
// and by the Tokens tab from its reads and actions, listed by the Tokens
// tab. Noting only touches memory; saving the file runs in a command,
// whose answer (knownSavedMsg) every tab receives.
type tokenMemo struct {
	store   *known.Store
	service string
}

// knownSavedMsg says the known tokens changed and were saved (or could
// not be: err).
type knownSavedMsg struct{ err error }

func newTokenMemo(d Deps) tokenMemo {
	m := tokenMemo{store: d.Known, service: "service"}
	if m.store == nil {
		m.store = known.NewMemory()
	}
	if d.Backend != nil {
		if h := d.Backend.Describe().Host; h != "" {
			m.service = h
		}
	}
	return m
}

func (m tokenMemo) list(merchant string) []tokenView {
	ts := m.store.List(m.service, merchant)
	out := make([]tokenView, len(ts))
	for i, t := range ts {
		out[i] = tokenView{Token: t}
	}
	return out
}

func (m tokenMemo) get(merchant, id string) (tokenView, bool) {
	t, ok := m.store.Get(m.service, merchant, id)
	return tokenView{Token: t}, ok
}

// status is the last status known of token id ("" when none).
func (m tokenMemo) status(merchant, id string) backend.TokenStatus {
	t, _ := m.store.Get(m.service, merchant, id)
	return t.Status
}

// note remembers t, and saves the store when that changed it.
func (m tokenMemo) note(merchant string, t known.Token) tea.Cmd {
	if !m.store.Note(m.service, merchant, t) {
		return nil
	}
	return m.save()
}

// notePayments remembers the tokens the payments used or made, under
// each payment's merchant (merchant when it names none).
func (m tokenMemo) notePayments(merchant string, ps []backend.Payment) tea.Cmd {
	changed := false
	for _, p := range ps {
		if t, ok := known.FromPayment(p); ok {
			changed = m.store.Note(m.service, cmp.Or(p.MerchantID, merchant), t) || changed
		}
	}
	if !changed {
		return nil
	}
	return m.save()
}

// noteOutcome remembers the token a done action left (its kind's
// TokenAfter): one revoked, as answered or read, or one a card-saving link
// made.
func (m tokenMemo) noteOutcome(merchant string, req action.Request, out action.Outcome) tea.Cmd {
	tok, made, ok := action.KindOf(req.Kind).TokenAfter(req, out)
	switch {
	case !ok:
		return nil
	case made:
		return m.note(merchant, known.Token{ID: tok.ID, Status: tok.Status, Source: known.Created})
	}
	return m.note(merchant, known.FromToken(tok, known.LookedUp))
}

func (m tokenMemo) save() tea.Cmd {
	store := m.store
	return func() tea.Msg { return knownSavedMsg{err: store.Save()} }
}
