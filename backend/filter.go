package backend

import (
	"context"
	"strings"

	"paydash/backend/v1"
)

// PaymentFilter is what the service itself can select payments by, besides
// the merchant and the period: the legacy interface's listPaymentsFilter
// takes one state and one order number (invoiceID). Zero members select
// everything.
type PaymentFilter struct {
	// Statuses are the statuses wanted; the service is asked for them only
	// when they are one legacy state (Cancelled and Rejected are both
	// CANCELLED: the caller still checks each row's status).
	Statuses []PaymentStatus
	OrderNo  string // the whole order number
	// Customer asks for rows that carry the customer's e-mail and phone:
	// only the legacy interface's list does (the current one's items have
	// neither).
	Customer bool
}

// serverState is the one legacy state that covers statuses, "" when they
// are none or more than one state.
func serverState(statuses []PaymentStatus) string {
	state := ""
	for _, s := range statuses {
		st := v1StateOf(s)
		if st == "" || (state != "" && st != state) {
			return ""
		}
		state = st
	}
	return state
}

// v1StateOf is the legacy state a status shows as (docs/service.md).
func v1StateOf(s PaymentStatus) string {
	for state, status := range v1States {
		if status == s {
			return state
		}
	}
	if s == PaymentRejected {
		return v1.StateCancelled
	}
	return ""
}

// FilterPayments lists the payments of q that the legacy interface selects
// by f on its side (one listPaymentsFilter per page, narrowing on
// Overflow as ListPayments does). ok is false when f gives it nothing to
// select by: the caller lists the period and filters it itself (its rows
// carry the customer already). The service compares the order number
// exactly: when the number as typed selects nothing, it is asked again in
// upper case (orderNoPager).
func (b *overV1) FilterPayments(q PeriodQuery, f PaymentFilter) (Pager[Payment], bool) {
	state := serverState(f.Statuses)
	if state == "" && f.OrderNo == "" {
		return nil, false
	}
	from, to := days(q.Start, q.End)
	pages := func(orderNo string) Pager[Payment] {
		return b.paymentPages(v1.PaymentFilter{SiteAlias: q.MerchantID, PeriodFrom: from, PeriodTo: to,
			State: state, InvoiceID: orderNo})
	}
	upper := strings.ToUpper(f.OrderNo)
	if upper == f.OrderNo {
		return pages(f.OrderNo), true
	}
	return &orderNoPager{cur: pages(f.OrderNo), again: func() Pager[Payment] { return pages(upper) }}, true
}

// orderNoPager reads the list selected by an order number as typed; when
// that list ends with no row, it reads the one selected by the number in
// upper case instead. The page that ends the first list comes with Done
// false, so each Next is still one round of requests.
type orderNoPager struct {
	cur   Pager[Payment]
	again func() Pager[Payment] // nil once asked
	seen  bool                  // a row came as typed
}

func (p *orderNoPager) Next(ctx context.Context) (Page[Payment], error) {
	page, err := p.cur.Next(ctx)
	if err != nil {
		return page, err
	}
	p.seen = p.seen || len(page.Items) > 0
	if page.Done && !p.seen && p.again != nil {
		p.cur, p.again = p.again(), nil
		page.Done = false
	}
	return page, nil
}

// FilterPayments: the current interface cannot select payments on the
// service's side (its list takes only the merchant and the period).
func (b *overV2) FilterPayments(PeriodQuery, PaymentFilter) (Pager[Payment], bool) { return nil, false }

// FilterPayments asks the legacy interface, which can select; its rows are
// the legacy view of each payment (no creation time: the list shows the
// last update), and opening one reads it through both.
func (b *overBoth) FilterPayments(q PeriodQuery, f PaymentFilter) (Pager[Payment], bool) {
	if p, ok := b.legacy.FilterPayments(q, f); ok {
		return p, true
	}
	if !f.Customer {
		return nil, false
	}
	from, to := days(q.Start, q.End)
	return b.legacy.paymentPages(v1.PaymentFilter{SiteAlias: q.MerchantID, PeriodFrom: from, PeriodTo: to}), true
}
