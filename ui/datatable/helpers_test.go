package datatable

import (
	"cmp"
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
)

// payment is a payment-like row: about fifteen strings, as the backend's
// list answers fill them.
type payment struct {
	ID, MerchantID, Created, Status string
	Amount, Currency                string
	AmountMinor                     int64
	OrderNo, Description            string
	Method, Instrument, Brand       string
	Issuer, CustomerIP, ResultCode  string
	Message                         string
}

func paymentID(p payment) string { return p.ID }

func paymentColumns() []Column[payment] {
	return []Column[payment]{
		{Key: "id", Title: "ID", Width: 10, Priority: 100,
			Text: func(p payment) string { return p.ID },
			Less: func(a, b payment) int { return cmp.Compare(a.ID, b.ID) }},
		{Key: "created", Title: "Created", Width: 16, Priority: 50,
			Text: func(p payment) string { return p.Created },
			Less: func(a, b payment) int { return cmp.Compare(a.Created, b.Created) }},
		{Key: "merchant", Title: "Merchant", Width: 10, Flex: 1, Priority: 10,
			Text: func(p payment) string { return p.MerchantID }},
		{Key: "order", Title: "Order", Width: 10, Priority: 20,
			Text: func(p payment) string { return p.OrderNo }},
		{Key: "status", Title: "Status", Width: 12, Priority: 90,
			Text: func(p payment) string { return p.Status },
			Less: func(a, b payment) int { return cmp.Compare(a.Status, b.Status) }},
		{Key: "amount", Title: "Amount", Width: 13, Align: lipgloss.Right, Priority: 80,
			Text: func(p payment) string { return p.Amount + " " + p.Currency },
			Less: func(a, b payment) int { return cmp.Compare(a.AmountMinor, b.AmountMinor) }},
		{Key: "description", Title: "Description", Width: 10, Flex: 3, Priority: 70,
			Text: func(p payment) string { return p.Description }},
	}
}

var (
	statuses     = []string{"Settled", "Settled", "Settled", "Authorized", "Pending", "Confirmation", "Rejected", "Cancelled"}
	descriptions = []string{"Flat white and croissant", "Order payment", "Subscription renewal, monthly plan", "Кофе с собой", "Gift card top-up", "Delivery fee", "Books: Go in Action", "Parking 2h"}
	merchants    = []string{"M-100234", "M-100871", "M-203300", "M-412001"}
	brands       = []string{"VISA", "MASTERCARD", "MIR", "UNIONPAY"}
)

// makePayment builds payment number i deterministically. Every string is a
// separate allocation, as a JSON decoder makes them.
func makePayment(i int) payment {
	minor := int64(i*7919%250000 + 100)
	return payment{
		ID:          fmt.Sprintf("%010d", 9000000000-i),
		MerchantID:  strings.Clone(merchants[i%len(merchants)]),
		Created:     fmt.Sprintf("2026-11-%02d %02d:%02d", 21-i/86400%20, i/3600%24, i/60%60),
		Status:      strings.Clone(statuses[i%len(statuses)]),
		Amount:      fmt.Sprintf("%d.%02d", minor/100, minor%100),
		Currency:    strings.Clone("RUB"),
		AmountMinor: minor,
		OrderNo:     fmt.Sprintf("ORD-%d", 5000+i),
		Description: strings.Clone(descriptions[i%len(descriptions)]),
		Method:      strings.Clone("card"),
		Instrument:  fmt.Sprintf("4111 11** **** %04d", i%10000),
		Brand:       strings.Clone(brands[i%len(brands)]),
		Issuer:      strings.Clone("Example Bank"),
		CustomerIP:  fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255),
		ResultCode:  strings.Clone("00"),
		Message:     strings.Clone("Approved"),
	}
}

func makePayments(from, n int) []payment {
	out := make([]payment, n)
	for i := range out {
		out[i] = makePayment(from + i)
	}
	return out
}

func newPayments(width, height int, rows []payment) Model[payment] {
	m := New(Config[payment]{ID: paymentID, Columns: paymentColumns()})
	m.SetSize(width, height)
	m.SetRows(rows)
	return m
}

func splitLines(s string) []string { return strings.Split(s, "\n") }
