package payments

import (
	"math"
	"time"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/ui/datatable"
)

// paymentStore keeps the Payments list's rows packed: 80 bytes a row and
// one string for its own texts, instead of a 392-byte backend.Payment and a
// string per field (docs/lists.md, "Memory per row"). A list item of the
// service's answer packs; a row with more than a list item carries (a full
// read, the legacy view, the raw body) is kept whole behind full. At gives
// back exactly the row put in, so the pane and the actions see what they
// saw before.
type paymentStore struct {
	rows  []packedPayment
	names interned
}

// packedPayment is a packed backend.Payment: when full is nil, text holds
// ID, OrderNo, Description and InstrumentTitle end to end (cut: where the
// first three end), names the interned Source, MerchantID, Status,
// ResultCode, currency and PaymentMethod, and the times are UTC UnixNano
// (noTime: the zero time).
type packedPayment struct {
	text                        string
	cut                         [3]uint16
	names                       [6]uint16
	created, completed, expires int64
	value                       money.Decimal
	full                        *backend.Payment
}

const noTime = math.MinInt64

func newPaymentStore() datatable.Store[backend.Payment] { return &paymentStore{} }

func (s *paymentStore) Reset(capacity int) {
	*s = paymentStore{rows: make([]packedPayment, 0, capacity)}
}

func (s *paymentStore) Len() int { return len(s.rows) }

func (s *paymentStore) Add(p backend.Payment) { s.rows = append(s.rows, s.pack(&p)) }

func (s *paymentStore) Set(it int32, p backend.Payment) { s.rows[it] = s.pack(&p) }

func (s *paymentStore) At(it int32) backend.Payment {
	r := &s.rows[it]
	if r.full != nil {
		return *r.full
	}
	a, b, c := int(r.cut[0]), int(r.cut[1]), int(r.cut[2])
	n := s.names.of
	return backend.Payment{
		Source: backend.Interface(n[r.names[0]]), ID: r.text[:a], MerchantID: n[r.names[1]],
		Created: unpackTime(r.created), Completed: unpackTime(r.completed),
		Status: backend.PaymentStatus(n[r.names[2]]), ResultCode: n[r.names[3]],
		Amount:  money.Amount{Value: r.value, Currency: n[r.names[4]]},
		OrderNo: r.text[a:b], Description: r.text[b:c], InvoiceExpires: unpackTime(r.expires),
		PaymentMethod: n[r.names[5]], InstrumentTitle: r.text[c:],
	}
}

// pack is p packed, or kept whole when the packed form cannot give it back
// exactly.
func (s *paymentStore) pack(p *backend.Payment) packedPayment {
	whole := func() packedPayment { return packedPayment{full: new(*p)} }
	if !listItemOnly(p) || len(p.ID)+len(p.OrderNo)+len(p.Description) > math.MaxUint16 {
		return whole()
	}
	var r packedPayment
	var ok [3]bool
	r.created, ok[0] = packTime(p.Created)
	r.completed, ok[1] = packTime(p.Completed)
	r.expires, ok[2] = packTime(p.InvoiceExpires)
	if ok != [3]bool{true, true, true} {
		return whole()
	}
	for i, name := range [6]string{string(p.Source), p.MerchantID, string(p.Status), p.ResultCode,
		p.Amount.Currency, p.PaymentMethod} {
		k, fits := s.names.id(name)
		if !fits {
			return whole()
		}
		r.names[i] = k
	}
	r.text = p.ID + p.OrderNo + p.Description + p.InstrumentTitle
	a := len(p.ID)
	r.cut = [3]uint16{uint16(a), uint16(a + len(p.OrderNo)), uint16(a + len(p.OrderNo) + len(p.Description))}
	r.value = p.Amount.Value
	return r
}

// listItemOnly reports whether p carries nothing but what a list item
// fills.
func listItemOnly(p *backend.Payment) bool {
	return !p.Detailed && p.Updated == (time.Time{}) && p.Message == "" && !p.TestMode &&
		p.InvoiceParams == nil && p.CustomerIP == "" && p.Agreement == "" && p.Card == nil &&
		p.Confirmation == nil && p.Token == nil && p.V1 == nil && p.Raw == nil
}

// packTime is t as UnixNano, false when unpackTime would not give back t
// exactly (another location, a monotonic reading, beyond the years
// 1678–2262).
func packTime(t time.Time) (int64, bool) {
	if t == (time.Time{}) {
		return noTime, true
	}
	n := t.UnixNano()
	return n, n != noTime && unpackTime(n) == t
}

func unpackTime(n int64) time.Time {
	if n == noTime {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// interned numbers the few distinct short texts of a list (merchants,
// currencies, statuses, methods, result codes): a row keeps a number, and
// each text is kept once.
type interned struct {
	of []string
	at map[string]uint16
}

// id is name's number, false when there are too many names to number.
func (n *interned) id(name string) (uint16, bool) {
	if k, ok := n.at[name]; ok {
		return k, true
	}
	if len(n.of) > math.MaxUint16 {
		return 0, false
	}
	if n.at == nil {
		n.at = map[string]uint16{}
	}
	k := uint16(len(n.of))
	n.of = append(n.of, name)
	n.at[name] = k
	return k, true
}
