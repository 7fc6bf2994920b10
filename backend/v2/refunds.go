package v2

import (
	"context"
	"iter"
	"time"

	"paydash/backend/money"
)

// RefundsService covers /api/v2/refunds.
type RefundsService service

// RefundRequest refunds part or all of a settled payment.
type RefundRequest struct {
	PaymentID string        `json:"paymentId,omitempty"`
	Amount    *money.Amount `json:"amount,omitempty"`
}

// Refund is a refund. A new refund is Pending; it becomes Success or
// Rejected later, so re-read it with Get.
type Refund struct {
	ID         string       `json:"id"`
	Created    time.Time    `json:"created"`
	PaymentID  string       `json:"paymentId"`
	Amount     money.Amount `json:"amount"`
	Status     RefundStatus `json:"status"`
	ResultCode ResultCode   `json:"resultCode,omitempty"` // not in list items
}

// RefundList is one page of refunds; Cursor is "" on the last page.
type RefundList struct {
	Items  []Refund `json:"items"`
	Cursor string   `json:"cursor,omitempty"`
}

// page is the list's items and the next page's cursor.
func (l *RefundList) page() ([]Refund, string) { return l.Items, l.Cursor }

func (l *RefundList) reserve(n int) { reserveItems(&l.Items, n) }

// Create refunds a payment. With the same Idempotency-Key, a repeat (ours
// after a failure, or the caller's after a timeout) gets the first refund
// back instead of refunding twice.
func (s *RefundsService) Create(ctx context.Context, req *RefundRequest, opts *CreateOptions) (*Refund, *Response, error) {
	return createAs[Refund](ctx, s.client, "Refunds.Create", apiPrefix+"/refunds", req, opts)
}

// Get fetches one refund.
func (s *RefundsService) Get(ctx context.Context, id string) (*Refund, *Response, error) {
	path, err := idPath("refunds", id, "")
	if err != nil {
		return nil, nil, err
	}
	return fetch[Refund](ctx, s.client, path, nil)
}

// List fetches one page of a merchant's refunds created between p.Start and
// p.End. For the next page, set p.Cursor to the answer's Cursor.
func (s *RefundsService) List(ctx context.Context, p ListParams) (*RefundList, *Response, error) {
	return listPage(ctx, s.client, apiPrefix+"/refunds", p.query(), (*RefundList).page)
}

// All iterates over every refund List would page through, starting at
// p.Cursor. It stops at the first error, yielded with a zero item.
func (s *RefundsService) All(ctx context.Context, p ListParams) iter.Seq2[Refund, error] {
	return allPages(ctx, p, s.List, (*RefundList).page)
}
