package tab

import (
	"cmp"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/known"
)

// TokenMemo is the tokens paydash knows (backend/known) for the service
// it is connected to: noted by the Payments tab from the payments it reads
// and by the Tokens tab from its reads and actions, listed by the Tokens
// tab. Noting only touches memory; saving the file runs in a command,
// whose answer (knownSavedMsg) every tab receives.
type TokenMemo struct {
	store   *known.Store
	service string
}

// KnownSavedMsg says the known tokens changed and were saved (or could
// not be: err).
type KnownSavedMsg struct{ Err error }

func NewTokenMemo(d Deps) TokenMemo {
	m := TokenMemo{store: d.Known, service: "service"}
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

func (m TokenMemo) List(merchant string) []TokenView {
	ts := m.store.List(m.service, merchant)
	out := make([]TokenView, len(ts))
	for i, t := range ts {
		out[i] = TokenView{Token: t}
	}
	return out
}

func (m TokenMemo) Get(merchant, id string) (TokenView, bool) {
	t, ok := m.store.Get(m.service, merchant, id)
	return TokenView{Token: t}, ok
}

// Status is the last status known of token id ("" when none).
func (m TokenMemo) Status(merchant, id string) backend.TokenStatus {
	t, _ := m.store.Get(m.service, merchant, id)
	return t.Status
}

// Note remembers t, and saves the store when that changed it.
func (m TokenMemo) Note(merchant string, t known.Token) tea.Cmd {
	if !m.store.Note(m.service, merchant, t) {
		return nil
	}
	return m.save()
}

// NotePayments remembers the tokens the payments used or made, under
// each payment's merchant (merchant when it names none).
func (m TokenMemo) NotePayments(merchant string, ps []backend.Payment) tea.Cmd {
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

// NoteOutcome remembers the token a done action left (its kind's
// TokenAfter): one revoked, as answered or read, or one a card-saving link
// made.
func (m TokenMemo) NoteOutcome(merchant string, req action.Request, out action.Outcome) tea.Cmd {
	tok, made, ok := action.KindOf(req.Kind).TokenAfter(req, out)
	switch {
	case !ok:
		return nil
	case made:
		return m.Note(merchant, known.Token{ID: tok.ID, Status: tok.Status, Source: known.Created})
	}
	return m.Note(merchant, known.FromToken(tok, known.LookedUp))
}

func (m TokenMemo) save() tea.Cmd {
	store := m.store
	return func() tea.Msg { return KnownSavedMsg{Err: store.Save()} }
}
