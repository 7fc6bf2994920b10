package sandbox

import (
	"slices"
	"time"

	"paydash/backend/money"
)

// Seeding stickers: each merchant's SBP stickers from its profile.

func seedStickers(s *Store, g *generator, start time.Time) {
	var all []*Sticker
	for _, p := range profiles {
		for _, t := range p.stickers {
			st := &Sticker{
				MerchantID: p.id, StickerType: "Sbp", Cashlink: t.cashlink, Description: t.desc, ProductCode: t.code,
				PaymentPurpose: t.purpose, Status: StickerActive, CallbackURL: p.callbackURL + "?source=sticker",
				Created: start.Add(g.between(0, 40*24*time.Hour)).Truncate(time.Second),
			}
			if t.amount > 0 {
				st.Amount = &money.Amount{Value: money.Decimal(rub(t.amount)), Currency: "RUB"}
			}
			st.Updated = st.Created
			if !t.active {
				st.Status, st.Updated = StickerInactive, st.Created.Add(g.between(24*time.Hour, 40*24*time.Hour))
			}
			st.Payload = sbpPayload(g.rng, false, st.Amount, p.acquirerBank)
			all = append(all, st)
		}
	}
	slices.SortStableFunc(all, func(a, b *Sticker) int { return a.Created.Compare(b.Created) })
	for _, st := range all {
		s.addSticker(s.merchantByID[st.MerchantID], st)
	}
}
