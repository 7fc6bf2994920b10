package pagecache

import (
	"context"

	"paydash/backend"
)

// The actions go to the service untouched; once one returns, the lists of
// its merchant are read again from the service, so that the refresh that
// follows an action shows its outcome. An action whose merchant the cache
// cannot tell (its answer does not say, or it failed and may still have
// been done) invalidates every list.

func (c *Backend) after(merchantID string, err error) {
	if err != nil {
		merchantID = ""
	}
	c.Invalidate(merchantID)
}

// CapturePayment captures through the wrapped backend.
func (c *Backend) CapturePayment(ctx context.Context, r backend.CaptureRequest) (backend.Payment, error) {
	p, err := c.Backend.CapturePayment(ctx, r)
	c.after(p.MerchantID, err)
	return p, err
}

// CancelPayment cancels through the wrapped backend.
func (c *Backend) CancelPayment(ctx context.Context, paymentID string) (backend.Payment, error) {
	p, err := c.Backend.CancelPayment(ctx, paymentID)
	c.after(p.MerchantID, err)
	return p, err
}

// RefundPayment refunds through the wrapped backend.
func (c *Backend) RefundPayment(ctx context.Context, r backend.RefundRequest) (backend.Refund, error) {
	ref, err := c.Backend.RefundPayment(ctx, r)
	c.after(ref.MerchantID, err)
	return ref, err
}

// CheckRefund asks through the wrapped backend; a refund found may have
// just been made.
func (c *Backend) CheckRefund(ctx context.Context, r backend.RefundRequest, via backend.Interface) (backend.Refund, bool, error) {
	ref, found, err := c.Backend.CheckRefund(ctx, r, via)
	if found || err != nil {
		c.after(ref.MerchantID, err)
	}
	return ref, found, err
}

// SetStickerActive switches a sticker through the wrapped backend.
func (c *Backend) SetStickerActive(ctx context.Context, stickerID string, active bool) (backend.Sticker, error) {
	s, err := c.Backend.SetStickerActive(ctx, stickerID, active)
	c.after(s.MerchantID, err)
	return s, err
}

// CreateInvoiceLink makes a payment page (and its payment) through the
// wrapped backend.
func (c *Backend) CreateInvoiceLink(ctx context.Context, r backend.InvoiceLinkRequest) (backend.InvoiceLink, error) {
	l, err := c.Backend.CreateInvoiceLink(ctx, r)
	c.after(r.MerchantID, err)
	return l, err
}

// CreateSticker registers a sticker through the wrapped backend.
func (c *Backend) CreateSticker(ctx context.Context, r backend.StickerRequest) (backend.Sticker, error) {
	s, err := c.Backend.CreateSticker(ctx, r)
	c.after(r.MerchantID, err)
	return s, err
}
