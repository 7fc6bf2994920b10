package v1

import "cmp"

// How fastXML reads the answer's elements into xmlRoot: the records, the
// lists of them, and the setters of each record's text fields. The
// scanner itself is in fastxml.go; the register has its own path
// (fastxml_register.go).

// list reads a container element whose children named item are records.
func (f *fastXML) list(name []byte, empty bool, item string, add func(name []byte, empty bool) error) error {
	if empty {
		return nil
	}
	return f.content(name, false, func(cname []byte, cempty bool) error {
		if string(cname) == item {
			return add(cname, cempty)
		}
		return f.skip(cname, cempty)
	})
}

// record reads an element whose children are text fields; field gives the
// setter of a child name, or nil for an unknown child (skipped).
func (f *fastXML) record(name []byte, empty bool, field func(string) func([]byte) error) error {
	if empty {
		return nil
	}
	return f.content(name, false, func(cname []byte, cempty bool) error {
		if set := field(string(cname)); set != nil {
			return f.value(cname, cempty, set)
		}
		return f.skip(cname, cempty)
	})
}

// root reads the answer's root element (and a <Response> inside it, by
// the same rule) into r.
func (f *fastXML) root(r *xmlRoot, name []byte, empty bool) error {
	if empty {
		return nil
	}
	return f.content(name, false, func(cname []byte, cempty bool) error {
		switch string(cname) {
		case "ErrorCode":
			if r.ErrorCode == nil {
				r.ErrorCode = new(flexInt)
			}
			return f.value(cname, cempty, r.ErrorCode.UnmarshalText)
		case "Message":
			return f.value(cname, cempty, r.Message.UnmarshalText)
		case "Overflow":
			return f.value(cname, cempty, r.Overflow.UnmarshalText)
		case "Payment":
			w, err := readRecord[paymentWire](f, cname, cempty)
			if err != nil {
				return err
			}
			p := w.payment()
			r.Payment = &p
		case "Refund":
			w, err := readRecord[refundWire](f, cname, cempty)
			if err != nil {
				return err
			}
			x := w.refund()
			r.Refund = &x
		case "Payments":
			r.Payments = cmp.Or(r.Payments, new(paymentList))
			return readItems(f, cname, cempty, "Payment", &r.Payments.Items)
		case "Refunds":
			r.Refunds = cmp.Or(r.Refunds, new(refundList))
			return readItems(f, cname, cempty, "Refund", &r.Refunds.Items)
		case "Documents":
			r.Documents = cmp.Or(r.Documents, new(documentList))
			return readItems(f, cname, cempty, "Document", &r.Documents.Items)
		case "Transfers":
			r.Transfers = cmp.Or(r.Transfers, new(transferList))
			return readItems(f, cname, cempty, "Transfer", &r.Transfers.Items)
		case "Register":
			reg, err := f.register(cname, cempty)
			if err != nil {
				return err
			}
			r.Register = reg
		case "Response":
			if r.Response == nil {
				r.Response = &xmlRoot{}
			}
			return f.root(r.Response, cname, cempty)
		default:
			return f.skip(cname, cempty)
		}
		return nil
	})
}

// wireRecord is a pointer to a wire record whose text fields fastXML
// fills by element name.
type wireRecord[W any] interface {
	*W
	field(name string) func([]byte) error
}

// readRecord reads one record element into a new W.
func readRecord[W any, P wireRecord[W]](f *fastXML, name []byte, empty bool) (W, error) {
	var w W
	err := f.record(name, empty, P(&w).field)
	return w, err
}

// readItems reads a list element whose children named item are records,
// appending each to items.
func readItems[W any, P wireRecord[W]](f *fastXML, name []byte, empty bool, item string, items *[]W) error {
	return f.list(name, empty, item, func(n []byte, e bool) error {
		*items = append(*items, *new(W))
		return f.record(n, e, P(&(*items)[len(*items)-1]).field)
	})
}

// The setters of each record's text fields, by element name.

func (w *paymentWire) field(name string) func([]byte) error {
	switch name {
	case "PaymentID":
		return w.PaymentID.UnmarshalText
	case "SiteInvoiceID":
		return w.SiteInvoiceID.UnmarshalText
	case "SiteID":
		return w.SiteID.UnmarshalText
	case "CurrencyCode":
		return w.CurrencyCode.UnmarshalText
	case "Amount":
		return w.Amount.UnmarshalText
	case "PaymentMethod":
		return w.PaymentMethod.UnmarshalText
	case "PaymentCurrencyCode":
		return w.PaymentCurrencyCode.UnmarshalText
	case "PaymentAmount":
		return w.PaymentAmount.UnmarshalText
	case "State":
		return w.State.UnmarshalText
	case "Purpose":
		return w.Purpose.UnmarshalText
	case "IsTestPayment":
		return w.IsTestPayment.UnmarshalText
	case "LastUpdateTime":
		return w.LastUpdateTime.UnmarshalText
	case "LastUpdate":
		return w.LastUpdate.UnmarshalText
	case "UserIdentifier":
		return w.UserIdentifier.UnmarshalText
	case "UserPhoneNumber":
		return w.UserPhoneNumber.UnmarshalText
	case "ErrorCode":
		return w.ErrorCode.UnmarshalText
	}
	return nil
}

func (w *refundWire) field(name string) func([]byte) error {
	switch name {
	case "RefundID":
		return w.RefundID.UnmarshalText
	case "ExternalID":
		return w.ExternalID.UnmarshalText
	case "PaymentID":
		return w.PaymentID.UnmarshalText
	case "Amount":
		return w.Amount.UnmarshalText
	case "ErrorCode":
		return w.ErrorCode.UnmarshalText
	case "ErrorDesc":
		return w.ErrorDesc.UnmarshalText
	case "State":
		return w.State.UnmarshalText
	case "Status":
		return w.Status.UnmarshalText
	case "LastUpdate":
		return w.LastUpdate.UnmarshalText
	case "LastUpdateTime":
		return w.LastUpdateTime.UnmarshalText
	}
	return nil
}

func (w *documentWire) field(name string) func([]byte) error {
	switch name {
	case "Created":
		return w.Created.UnmarshalText
	case "Description":
		return w.Description.UnmarshalText
	case "DocumentID":
		return w.DocumentID.UnmarshalText
	case "FileName":
		return w.FileName.UnmarshalText
	}
	return nil
}

func (w *transferWire) field(name string) func([]byte) error {
	switch name {
	case "Created":
		return w.Created.UnmarshalText
	case "CurrencyCode":
		return w.CurrencyCode.UnmarshalText
	case "TransferAmount":
		return w.TransferAmount.UnmarshalText
	case "PaymentOrderID":
		return w.PaymentOrderID.UnmarshalText
	case "RegisterID":
		return w.RegisterID.UnmarshalText
	}
	return nil
}

func (w *registerWire) field(name string) func([]byte) error {
	switch name {
	case "PeriodFrom":
		return w.PeriodFrom.UnmarshalText
	case "PeriodTo":
		return w.PeriodTo.UnmarshalText
	case "RegisterID":
		return w.RegisterID.UnmarshalText
	case "RegisterNumber":
		return w.RegisterNumber.UnmarshalText
	}
	return nil
}
