package registers

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
	"time"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/views/tab"
)

// currencyTotal is what a register's operations in one currency add up to.
type currencyTotal struct {
	Currency          string
	Payments, Refunds int
	Paid, Refunded    money.Decimal // Refunded is negative, as the operations carry it
	Transfer          money.Decimal // the sum of the operations' transfer amounts
	// Overflow: a sum left the range money.Decimal holds (only a hostile
	// answer can do that), so nothing of this currency can be checked.
	Overflow bool
}

// registerTotals are a register's totals, one per currency, in the order
// the currencies first appear.
type registerTotals []currencyTotal

// totalsOf adds a register's operations up.
func totalsOf(ops []backend.Operation) registerTotals {
	var out registerTotals
	index := map[string]int{}
	for i := range ops {
		op := &ops[i]
		k, ok := index[op.Currency]
		if !ok {
			k = len(out)
			index[op.Currency] = k
			out = append(out, currencyTotal{Currency: op.Currency})
		}
		t := &out[k]
		var fine bool
		if op.OperationAmount < 0 {
			t.Refunds++
			t.Refunded, fine = addExact(t.Refunded, op.OperationAmount)
		} else {
			t.Payments++
			t.Paid, fine = addExact(t.Paid, op.OperationAmount)
		}
		var fine2 bool
		t.Transfer, fine2 = addExact(t.Transfer, op.TransferAmount)
		t.Overflow = t.Overflow || !fine || !fine2
	}
	return out
}

// addExact adds two amounts, reporting false (and leaving a) when the sum
// does not fit.
func addExact(a, b money.Decimal) (money.Decimal, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return a, false
	}
	return s, true
}

// check compares the transfer amounts of the operations with the transfer:
// ok when they add up to it exactly, in its currency, with nothing in
// another; text says so, or what is off and by how much.
func (ts registerTotals) check(tr backend.Transfer) (ok bool, text string) {
	cur := tr.Amount.Currency
	var mine currencyTotal
	others, otherOps := []string{}, 0
	for _, t := range ts {
		if t.Currency == cur {
			mine = t
			continue
		}
		others = append(others, textsafe.Line(t.Currency, 8))
		otherOps += t.Payments + t.Refunds
	}
	amount := func(v money.Decimal) string { return tab.FmtAmount(money.Amount{Value: v, Currency: cur}) }
	var problems []string
	switch diff := tr.Amount.Value - mine.Transfer; {
	case mine.Overflow:
		problems = append(problems, "the amounts are too large to add up: the register cannot be checked")
	case diff > 0:
		problems = append(problems, fmt.Sprintf("the operations add up to %s, the transfer is %s: %s more than its operations",
			amount(mine.Transfer), amount(tr.Amount.Value), amount(diff)))
	case diff < 0:
		problems = append(problems, fmt.Sprintf("the operations add up to %s, the transfer is %s: %s less than its operations",
			amount(mine.Transfer), amount(tr.Amount.Value), amount(-diff)))
	}
	if otherOps > 0 {
		problems = append(problems, fmt.Sprintf("%s in %s, not the transfer's currency",
			tab.Plural(otherOps, "operation is", "operations are"), strings.Join(others, ", ")))
	}
	if len(problems) == 0 {
		return true, "✓ The operations add up to the transfer: " + amount(tr.Amount.Value)
	}
	return false, "✗ Does not add up: " + strings.Join(problems, "; ")
}

// lines are the totals for people, one line per currency, at most max
// (then a line saying how many more).
func (ts registerTotals) lines(most int) []string {
	var out []string
	for i, t := range ts {
		if i == most {
			out = append(out, fmt.Sprintf("… and %d more currencies", len(ts)-most))
			break
		}
		a := func(v money.Decimal) string { return money.Group(v, t.Currency) }
		out = append(out, fmt.Sprintf("%s: %s %s · %s %s · to transfer %s", textsafe.Line(t.Currency, 8),
			tab.Plural(t.Payments, "payment", "payments"), a(t.Paid),
			tab.Plural(t.Refunds, "refund", "refunds"), a(t.Refunded), a(t.Transfer)))
	}
	return out
}

// operationsCSV is a register's operations as CSV for a spreadsheet:
// amounts exact with the currency's decimals, times UTC ISO 8601, and text
// that a spreadsheet would take for a formula kept as text.
func operationsCSV(reg backend.Register) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"operation_id", "kind", "site", "invoice_id", "time_utc", "currency", "operation_amount", "transfer_amount"})
	for i := range reg.Operations {
		op := &reg.Operations[i]
		places := money.Decimals(op.Currency)
		stamp := ""
		if !op.Stamp.IsZero() {
			stamp = op.Stamp.UTC().Format(time.RFC3339)
		}
		_ = w.Write([]string{tab.CSVText(op.ID), operationKind(op), tab.CSVText(op.SiteAlias), tab.CSVText(op.InvoiceID), stamp,
			tab.CSVText(op.Currency), op.OperationAmount.StringFixed(places), op.TransferAmount.StringFixed(places)})
	}
	w.Flush()
	return buf.Bytes()
}
