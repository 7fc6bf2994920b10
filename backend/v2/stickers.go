package v2

import (
	"context"
	"iter"

	"paydash/backend/money"
)

// StickersService covers /api/v2/stickers: payment codes and links for a
// product, such as the QR code at a cash desk.
type StickersService service

// StickerRequest registers a sticker.
type StickerRequest struct {
	MerchantID     string        `json:"merchantId,omitempty"`
	StickerType    string        `json:"stickerType,omitempty"` // e.g. StickerTypeSbp
	Cashlink       bool          `json:"cashlink,omitempty"`
	Description    string        `json:"description,omitempty"`
	ProductCode    string        `json:"productCode,omitempty"`
	PaymentPurpose string        `json:"paymentPurpose,omitempty"`
	Amount         *money.Amount `json:"amount,omitempty"`
	CallbackURL    string        `json:"callbackUrl,omitempty"` // notified of payments by the sticker
}

// Sticker is a sticker.
type Sticker struct {
	ID             string        `json:"id"`
	StickerType    string        `json:"stickerType,omitempty"`
	Cashlink       bool          `json:"cashlink"`
	Description    string        `json:"description,omitempty"`
	ProductCode    string        `json:"productCode,omitempty"`
	PaymentPurpose string        `json:"paymentPurpose,omitempty"`
	Amount         money.Amount  `json:"amount"`
	Status         StickerStatus `json:"status"`
	Payload        string        `json:"payload,omitempty"` // the payment link
}

// StickerList is one page of stickers; Cursor is "" on the last page.
type StickerList struct {
	Items  []Sticker `json:"items"`
	Cursor string    `json:"cursor,omitempty"`
}

// page is the list's items and the next page's cursor.
func (l *StickerList) page() ([]Sticker, string) { return l.Items, l.Cursor }

func (l *StickerList) reserve(n int) { reserveItems(&l.Items, n) }

// stickerUpdate is the body of PUT /stickers/{id}. No omitempty: false is
// the point of switching a sticker off.
type stickerUpdate struct {
	Active bool `json:"active"`
}

// Create registers a sticker.
func (s *StickersService) Create(ctx context.Context, req *StickerRequest, opts *CreateOptions) (*Sticker, *Response, error) {
	return createAs[Sticker](ctx, s.client, "Stickers.Create", apiPrefix+"/stickers", req, opts)
}

// Update switches a sticker on (active) or off. Not retried automatically.
func (s *StickersService) Update(ctx context.Context, id string, active bool) (*Response, error) {
	path, err := idPath("stickers", id, "")
	if err != nil {
		return nil, err
	}
	return s.client.put(ctx, path, stickerUpdate{Active: active}, nil)
}

// Get fetches one sticker.
func (s *StickersService) Get(ctx context.Context, id string) (*Sticker, *Response, error) {
	path, err := idPath("stickers", id, "")
	if err != nil {
		return nil, nil, err
	}
	return fetch[Sticker](ctx, s.client, path, nil)
}

// List fetches one page of a merchant's stickers. For the next page, set
// p.Cursor to the answer's Cursor.
func (s *StickersService) List(ctx context.Context, p StickerListParams) (*StickerList, *Response, error) {
	return listPage(ctx, s.client, apiPrefix+"/stickers", p.query(), (*StickerList).page)
}

// All iterates over every sticker List would page through, starting at
// p.Cursor. It stops at the first error, yielded with a zero item.
func (s *StickersService) All(ctx context.Context, p StickerListParams) iter.Seq2[Sticker, error] {
	return allPages(ctx, p, s.List, (*StickerList).page)
}
