package payments

import (
	"reflect"
	"testing"
	"time"
	"unsafe"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/ui/datatable"
)

// A list item packs into 80 bytes; every row, packed or kept whole, comes
// back from the list exactly as it went in, so the pane and the actions
// see the payment they saw before.
func TestPackedRowsComeBackWhole(t *testing.T) {
	if n := unsafe.Sizeof(packedPayment{}); n != 80 {
		t.Errorf("a packed row is %d bytes, want 80 (docs/lists.md)", n)
	}
	at := time.Date(2026, 11, 20, 12, 0, 0, 5, time.UTC)
	item := backend.Payment{Source: backend.V2, ID: "43000001", MerchantID: "1001", Created: at,
		Status: backend.PaymentAuthorized, ResultCode: "Success",
		Amount: money.Amount{Value: 15000000, Currency: "RUB"}, OrderNo: "ORD-1", Description: "Кофе",
		InvoiceExpires: at.Add(time.Hour), PaymentMethod: "BankCard", InstrumentTitle: "220220******1234"}
	detailed := item
	detailed.ID, detailed.Detailed, detailed.Card = "43000002", true, &backend.CardInfo{Brand: "MIR"}
	detailed.Raw = []byte(`{"id":"43000002"}`)
	local := item
	local.ID, local.Created = "43000003", at.In(time.FixedZone("MSK", 3*3600))
	clock := item
	clock.ID, clock.Completed = "43000004", time.Now() // a monotonic reading
	empty := backend.Payment{ID: "43000005"}
	rows := []backend.Payment{item, detailed, local, clock, empty}

	table := datatable.New(TableConfig(nil))
	table.SetSize(160, 10)
	table.SetRows(rows)
	if got := table.Rows(); !reflect.DeepEqual(got, rows) {
		t.Errorf("rows came back changed:\n%#v\nwant\n%#v", got, rows)
	}
	s := newPaymentStore().(*paymentStore)
	for _, p := range rows {
		s.Add(p)
	}
	for i, whole := range []bool{false, true, true, true, false} {
		if (s.rows[i].full != nil) != whole {
			t.Errorf("row %s kept whole: %v, want %v", rows[i].ID, s.rows[i].full != nil, whole)
		}
	}
	s.Set(0, detailed)
	if got := s.At(0); !reflect.DeepEqual(got, detailed) {
		t.Errorf("a replaced row came back as %#v", got)
	}
}
