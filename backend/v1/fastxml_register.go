package v1

import (
	"bytes"
	"time"

	"paydash/backend/money"
)

// The register is the one big answer: tens of thousands of operations in
// one body. Read like the other answers (a wire struct per operation, a
// closure and a string per field, then convert copying into []Operation),
// it spent most of its time allocating. Here its operations are read
// straight into their final form: each field gets exactly the value
// operationWire.operation would give, which FuzzDecodeXML checks.
//
//   - An operation's own strings (OperationID, InvoiceID) are copied into
//     one arena per register and made strings by a single conversion at
//     the end, instead of one allocation each.
//   - SiteAlias and CurrencyCode repeat a handful of values, so they are
//     interned.
//   - Stamps in the service's form and plain amounts are read by hand;
//     anything else goes through flexTime and flexDecimal as before.
//   - Operations are collected in chunks and copied once into a slice of
//     the exact length (see opsBuilder).

// register reads a Register element: its own fields through registerWire,
// its operations through operation.
func (f *fastXML) register(name []byte, empty bool) (*Register, error) {
	var w registerWire
	var ops opsBuilder
	if !empty {
		err := f.content(name, false, func(n []byte, e bool) error {
			if string(n) == "Operations" {
				return f.list(n, e, "Operation", func(n []byte, e bool) error {
					return f.operation(n, e, &ops)
				})
			}
			if set := w.field(string(n)); set != nil {
				return f.value(n, e, set)
			}
			return f.skip(n, e)
		})
		if err != nil {
			return nil, err
		}
	}
	reg := w.register()
	reg.Operations = ops.operations()
	return &reg, nil
}

// operation reads one Operation element into a new entry of ops.
func (f *fastXML) operation(name []byte, empty bool, ops *opsBuilder) error {
	e := ops.next()
	if empty {
		return nil
	}
	return f.content(name, false, func(cname []byte, cempty bool) error {
		set := operationField(string(cname))
		if set == nil {
			return f.skip(cname, cempty)
		}
		text, err := f.fieldText(cname, cempty)
		if err != nil {
			return err
		}
		if set(ops, e, text) != nil {
			return errSlowPath
		}
		return nil
	})
}

// operationField gives the setter of an Operation child, or nil for an
// unknown child. Ids and codes are trimmed, as flexString.id trims them;
// the InvoiceID is kept as sent, as operationWire.operation keeps it.
func operationField(name string) func(ops *opsBuilder, e *opEntry, text []byte) error {
	switch name {
	case "OperationID":
		return func(ops *opsBuilder, e *opEntry, text []byte) error {
			e.id = ops.keep(bytes.TrimSpace(text))
			return nil
		}
	case "SiteAlias":
		return func(ops *opsBuilder, e *opEntry, text []byte) error {
			e.op.SiteAlias = ops.intern(bytes.TrimSpace(text))
			return nil
		}
	case "InvoiceID":
		return func(ops *opsBuilder, e *opEntry, text []byte) error {
			e.invoice = ops.keep(text)
			return nil
		}
	case "Stamp":
		return func(ops *opsBuilder, e *opEntry, text []byte) (err error) {
			e.op.Stamp, err = parseFlexTime(text)
			return err
		}
	case "CurrencyCode":
		return func(ops *opsBuilder, e *opEntry, text []byte) error {
			e.op.CurrencyCode = ops.intern(bytes.TrimSpace(text))
			return nil
		}
	case "OperationAmount":
		return func(ops *opsBuilder, e *opEntry, text []byte) (err error) {
			e.op.OperationAmount, err = parseFlexDecimal(text)
			return err
		}
	case "TransferAmount":
		return func(ops *opsBuilder, e *opEntry, text []byte) (err error) {
			e.op.TransferAmount, err = parseFlexDecimal(text)
			return err
		}
	}
	return nil
}

// opsBuilder collects a register's operations.
//
// They go into chunks that never move, and are copied once into a slice of
// the exact length at the end: growing one slice of 50,000 operations
// would copy it several times over, and counting the <Operation> tags
// ahead to size it (bytes.Count) costs more than the one copy.
//
// OperationID and InvoiceID are mostly distinct, so their bytes go into
// one arena, turned into a string by a single conversion in operations;
// until then an entry holds where its strings lie in the arena.
type opsBuilder struct {
	full     [][]opEntry // filled chunks
	cur      []opEntry   // the chunk being filled
	n        int         // entries in all
	arena    []byte
	interned map[string]string // see intern
}

type opEntry struct {
	op          Operation // all but OperationID and InvoiceID
	id, invoice span      // OperationID and InvoiceID, in the arena
}

// span is arena[start:end].
type span struct{ start, end int }

const (
	minOpChunk  = 16 // chunks double from this size, so a short register stays small
	maxOpChunk  = 4096
	maxInterned = 256 // distinct values interned per register
)

// next appends a zero entry and returns it to be filled.
func (b *opsBuilder) next() *opEntry {
	if len(b.cur) == cap(b.cur) {
		if b.cur != nil {
			b.full = append(b.full, b.cur)
		}
		b.cur = make([]opEntry, 0, min(max(2*cap(b.cur), minOpChunk), maxOpChunk))
	}
	b.cur = append(b.cur, opEntry{})
	b.n++
	return &b.cur[len(b.cur)-1]
}

// keep copies text into the arena.
func (b *opsBuilder) keep(text []byte) span {
	start := len(b.arena)
	b.arena = append(b.arena, text...)
	return span{start, len(b.arena)}
}

// intern returns text as a string, the same string for the same text
// within one register. The table is bounded, so a column of distinct
// values costs little more than without it.
func (b *opsBuilder) intern(text []byte) string {
	if s, ok := b.interned[string(text)]; ok { // the lookup does not allocate
		return s
	}
	s := string(text)
	if len(b.interned) < maxInterned {
		if b.interned == nil {
			b.interned = make(map[string]string)
		}
		b.interned[s] = s
	}
	return s
}

// operations returns the operations read, nil when there are none (as
// convert gives for a register without any).
func (b *opsBuilder) operations() []Operation {
	if b.n == 0 {
		return nil
	}
	strs := string(b.arena) // one allocation for all the ids
	out := make([]Operation, 0, b.n)
	add := func(chunk []opEntry) {
		for i := range chunk {
			e := &chunk[i]
			op := e.op
			op.OperationID = strs[e.id.start:e.id.end]
			op.InvoiceID = strs[e.invoice.start:e.invoice.end]
			out = append(out, op)
		}
	}
	for _, chunk := range b.full {
		add(chunk)
	}
	add(b.cur)
	return out
}

// parseFlexTime is flexTime.UnmarshalText with a fast path for the
// service's own form, yyyy-MM-ddTHH:mm:ss; anything else, an impossible
// date included, goes through flexTime as before.
func parseFlexTime(text []byte) (time.Time, error) {
	if t, ok := plainTime(bytes.TrimSpace(text)); ok {
		return t, nil
	}
	var t flexTime
	err := t.UnmarshalText(text)
	return time.Time(t), err
}

// plainTime reads exactly yyyy-MM-ddTHH:mm:ss within the ranges time.Parse
// allows (the day against the month's length), giving the UTC time
// time.Parse would; ok is false for anything else.
func plainTime(b []byte) (t time.Time, ok bool) {
	if len(b) != len("2006-01-02T15:04:05") ||
		b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' {
		return time.Time{}, false
	}
	year, ok1 := smallInt(b[0:4])
	month, ok2 := smallInt(b[5:7])
	day, ok3 := smallInt(b[8:10])
	hour, ok4 := smallInt(b[11:13])
	minute, ok5 := smallInt(b[14:16])
	sec, ok6 := smallInt(b[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) ||
		month < 1 || month > 12 || day < 1 || day > daysIn(month, year) ||
		hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, 0, time.UTC), true
}

// digits reads a run of at most 18 ASCII digits (so it cannot overflow).
func digits(b []byte) (n int64, ok bool) {
	if len(b) > 18 {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// smallInt is digits for the fields of a time.
func smallInt(b []byte) (int, bool) {
	n, ok := digits(b)
	return int(n), ok
}

// daysIn is the length of a month of the proleptic Gregorian calendar.
func daysIn(month, year int) int {
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		return 29
	}
	return [...]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[month]
}

// parseFlexDecimal is flexDecimal.UnmarshalText with a fast path for a
// plain amount; anything else goes through flexDecimal as before.
func parseFlexDecimal(text []byte) (money.Decimal, error) {
	if d, ok := plainDecimal(bytes.TrimSpace(text)); ok {
		return d, nil
	}
	var d flexDecimal
	err := d.UnmarshalText(text)
	return money.Decimal(d), err
}

// plainDecimal reads [-+]digits[.digits] with 1 to 14 integer digits and 1
// to 4 decimals, the subset of money.Parse's input it reads to the same
// value without error; ok is false for anything else.
func plainDecimal(b []byte) (d money.Decimal, ok bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	intPart, frac, hasDot := bytes.Cut(b, []byte("."))
	if len(intPart) == 0 || len(intPart) > 14 || hasDot && (len(frac) == 0 || len(frac) > money.Scale) {
		return 0, false
	}
	whole, ok1 := digits(intPart)
	fraction, ok2 := digits(frac)
	if !ok1 || !ok2 {
		return 0, false
	}
	for range money.Scale - len(frac) {
		fraction *= 10 // "1.5" is 1.5000
	}
	v := whole*pow10(money.Scale) + fraction
	if neg {
		v = -v
	}
	return money.Decimal(v), true
}

// pow10 is 10^n.
func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}
