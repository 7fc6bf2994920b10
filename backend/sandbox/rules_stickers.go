package sandbox

import (
	"fmt"
	"slices"
	"strings"

	"paydash/backend/money"
)

// Sticker rules: registering an SBP sticker and switching it on or off.

// CreateSticker registers an SBP sticker: Active, with an NSPK payload.
func (s *Store) CreateSticker(req StickerRequest) (Sticker, error) {
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()
	problems := slices.Clone(req.problems)
	m := s.checkMerchant(req.MerchantID, &problems)
	typ := req.StickerType
	switch {
	case typ == "":
		typ = "Sbp"
	case strings.EqualFold(typ, "sbp"):
		typ = "Sbp"
	default:
		problems = append(problems, fmt.Sprintf("stickerType %q is not supported (Sbp)", req.StickerType))
	}
	checkAmount("amount", req.Amount, m, false, req.amountBad, &problems)
	if a := req.Amount; a != nil && !req.amountBad {
		if a.Currency != "RUB" && money.ValidCurrency(a.Currency) {
			problems = append(problems, "amount.currency must be RUB for an SBP sticker")
		}
	}
	if req.Cashlink && req.Amount == nil && !req.amountBad {
		problems = append(problems, "amount is required for a cashlink sticker")
	}
	checkURL("callbackUrl", req.CallbackURL, &problems)
	if len(problems) > 0 {
		return Sticker{}, invalid(problems...)
	}
	st := &Sticker{
		StickerType: typ, Cashlink: req.Cashlink, Description: req.Description, ProductCode: req.ProductCode,
		PaymentPurpose: req.PaymentPurpose, Amount: req.Amount, Status: StickerActive,
		CallbackURL: req.CallbackURL, Created: now, Updated: now,
	}
	st.Payload = sbpPayload(s.rng, false, st.Amount, m.acquirer())
	s.addSticker(m, st)
	return *st, nil
}

// SetStickerActive switches a sticker on or off (Active <-> Inactive).
func (s *Store) SetStickerActive(id string, active bool) (Sticker, error) {
	s.mu.Lock()
	defer s.unlock()
	st, err := s.sticker(id)
	if err != nil {
		return Sticker{}, err
	}
	want := StickerInactive
	if active {
		want = StickerActive
	}
	if st.Status != want {
		st.Status, st.Updated = want, s.clock()
	}
	return *st, nil
}

func (m *merchantData) acquirer() string {
	for _, p := range profiles {
		if p.id == m.ID {
			return p.acquirerBank
		}
	}
	return "100000000111"
}
