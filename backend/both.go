package backend

import (
	"context"
	"errors"
)

// overBoth serves the Backend when both interfaces are configured
// (docs/architecture.md): v2 serves the lists and the actions, v1 adds its
// view of a payment and serves what only it has (transfers, registers,
// documents).
type overBoth struct {
	*overV2
	legacy *overV1
}

func (b *overBoth) Describe() Description {
	d := b.overV2.Describe()
	d.Interfaces = []Interface{V2, V1}
	return d
}

// Can answers from the interface that would do the work.
func (b *overBoth) Can(a ActionName) (bool, string) {
	if a == ReadRegisters {
		return b.legacy.Can(a)
	}
	return b.overV2.Can(a)
}

// Probe checks both logins. A broken v1 login does not stop the dashboard:
// v2 still serves everything but the registers, and the error says why.
// When the service cannot be reached through v2, v1 (the same host) is not
// asked: one "reach the service" says it all.
func (b *overBoth) Probe(ctx context.Context) error {
	err := b.overV2.Probe(ctx)
	if lostAnswer(KindOf(err)) {
		return err
	}
	return errors.Join(err, b.legacy.Probe(ctx))
}

// CheckRefund asks the interface that carried the refund.
func (b *overBoth) CheckRefund(ctx context.Context, r RefundRequest, via Interface) (Refund, bool, error) {
	if via == V1 {
		return b.legacy.CheckRefund(ctx, r, via)
	}
	return b.overV2.CheckRefund(ctx, r, via)
}

// GetPayment reads the payment through v2 and puts v1's view beside it. If
// v1 cannot answer, the payment still shows, without that view.
func (b *overBoth) GetPayment(ctx context.Context, id string) (Payment, error) {
	p, err := b.overV2.GetPayment(ctx, id)
	if err != nil {
		return p, err
	}
	if old, err := b.legacy.GetPayment(ctx, id); err == nil {
		p.V1 = old.V1
	}
	return p, nil
}

// FindPaymentByOrderNo asks v1, which alone can, then reads the payment
// it names through v2 with v1's view beside it, as GetPayment does. If v2
// cannot read it, v1's answer (a whole payment too) is shown instead.
func (b *overBoth) FindPaymentByOrderNo(ctx context.Context, merchantID, orderNo string) (Payment, bool, error) {
	old, asked, err := b.legacy.FindPaymentByOrderNo(ctx, merchantID, orderNo)
	if err != nil {
		return old, asked, err
	}
	p, err := b.overV2.GetPayment(ctx, old.ID)
	if err != nil {
		if ctx.Err() != nil {
			return Payment{}, asked, err
		}
		return old, asked, nil
	}
	p.V1 = old.V1
	return p, asked, nil
}

func (b *overBoth) ListTransfers(ctx context.Context, q DayQuery) ([]Transfer, error) {
	return b.legacy.ListTransfers(ctx, q)
}

func (b *overBoth) GetRegister(ctx context.Context, id string) (Register, error) {
	return b.legacy.GetRegister(ctx, id)
}

func (b *overBoth) ListDocuments(ctx context.Context, q DayQuery) ([]Document, error) {
	return b.legacy.ListDocuments(ctx, q)
}

func (b *overBoth) GetDocument(ctx context.Context, id string) (DocumentContent, error) {
	return b.legacy.GetDocument(ctx, id)
}
