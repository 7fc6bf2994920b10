package forms

import (
	"errors"
	"slices"
	"strings"
	"time"

	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"paydash/backend"
	"paydash/backend/money"
)

// inputCap stops a runaway paste (the text input's CharLimit) far above
// every field's bound, so that an over-long value is reported, never cut
// short quietly into something that looks valid.
const inputCap = 4096

// currencies offered for a payment link; the default currency is added
// when it is not one of them.
var currencies = []string{"RUB", "USD", "EUR", "CNY", "KZT"}

const (
	stickerTypeSbp   = "Sbp"       // the only sticker type the service documents
	stickerCurrency  = "RUB"       // SBP works in roubles only
	tokenType        = "recurring" // POST /api/v2/tokenization lists only this type
	tokenPaymentType = "bankcard"  // what backend.CreateTokenizationLink sends as paymentMethod
)

type invoiceValues struct {
	amount, currency, description, orderNo string
	email, phone                           string
	expires, returnURL, callbackURL        string
	hold                                   bool
}

type stickerValues struct {
	stickerType                              string
	cashlink                                 bool
	amount, description                      string
	productCode, paymentPurpose, callbackURL string
}

type tokenizationValues struct {
	account, email, purpose string
	returnURL, callbackURL  string
}

// input is a one-line text field bound to v, checked by check both when
// it is left and when the form is submitted.
func (f *Form) input(key, title, placeholder string, v *string, check func(string) error) *field {
	in := huh.NewInput().Key(key).Title(title).Placeholder(placeholder).
		CharLimit(inputCap).Value(v).Validate(check)
	f.checks = append(f.checks, fieldCheck{key, func() error { return check(*v) }})
	return &field{Field: in, key: key}
}

// choice is a one-line select bound to v, checked like an input.
func (f *Form) choice(key, title string, options []huh.Option[string], v *string, check func(string) error) *field {
	s := huh.NewSelect[string]().Key(key).Title(title).Options(options...).
		Inline(true).Value(v).Validate(check)
	f.checks = append(f.checks, fieldCheck{key, func() error { return check(*v) }})
	return &field{Field: s, key: key}
}

// yesNo is a one-line yes/no choice bound to v (No unless v is set).
func yesNo(key, title string, v *bool) *field {
	c := huh.NewConfirm().Key(key).Title(title).Affirmative("Yes").Negative("No").
		Inline(true).WithButtonAlignment(lipgloss.Left).Value(v)
	return &field{Field: c, key: key}
}

// --- payment link -------------------------------------------------------
//
// Page "Amount and order": amount (ui.ParseAmount in the chosen currency,
// above 0), currency (RUB, USD, EUR, CNY, KZT, and the default one),
// description (required, ≤ MaxDescription), order number (optional,
// ≤ MaxOrderNo). Page "Customer": e-mail (optional, ValidEmail), phone
// (optional, NormalizePhone: typed as people write it, sent as digits,
// what is sent shown under the field). Page "Link": expiry (optional, ParseExpiry), hold
// (dual mode, No by default), return page (optional, ValidURL), callback
// address (optional, ValidHTTPSURL). The spec marks no customer member as
// required, so neither e-mail nor phone is.

func (f *Form) invoicePages() []page {
	v := &f.inv
	options := huh.NewOptions(currencies...)
	if !slices.Contains(currencies, f.d.Currency) {
		options = append([]huh.Option[string]{huh.NewOption(f.d.Currency, f.d.Currency)}, options...)
	}
	return []page{
		{title: "Amount and order", fields: []*field{
			f.input("amount", "Amount", "e.g. 1,500.00", &v.amount, func(s string) error {
				_, err := parseAmount(s, v.currency)
				return err
			}),
			f.choice("currency", "Currency", options, &v.currency, func(c string) error {
				if err := ValidCurrency(c); err != nil {
					return err
				}
				// The amount was checked against the currency chosen then.
				if strings.TrimSpace(v.amount) == "" {
					return nil
				}
				if _, err := parseAmount(v.amount, c); err != nil {
					return errors.New("change the amount: " + err.Error())
				}
				return nil
			}),
			f.input("description", "Description", "e.g. Order 1234: two mugs", &v.description,
				required("a description of what is paid for", MaxDescription)),
			f.input("orderNo", "Order number (optional)", "e.g. ORD-1234", &v.orderNo, text(MaxOrderNo)),
		}},
		{title: "Customer", fields: []*field{
			f.input("email", "Customer e-mail (optional)", "e.g. name@example.com", &v.email, optional(ValidEmail)),
			f.input("phone", "Customer phone (optional)", "e.g. "+examplePhone, &v.phone, optional(ValidPhone)).
				withHint(func() string { return phoneHint(v.phone) }),
		}},
		{title: "Link", fields: []*field{
			f.input("expires", "Expires (optional; empty: the service's default)",
				"e.g. 24h, 3d or "+exampleExpiry(f.d.Now()), &v.expires, func(s string) error {
					_, err := ParseExpiry(s, f.d.Now())
					return err
				}),
			yesNo("hold", "Hold the money, capture later? ", &v.hold),
			f.input("returnURL", "Return page (optional)", "e.g. https://shop.example.com/done",
				&v.returnURL, optional(ValidURL)),
			f.input("callbackURL", "Callback address (optional, https)", "e.g. https://shop.example.com/notify",
				&v.callbackURL, optional(ValidHTTPSURL)),
		}},
	}
}

// invoiceRequest converts the checked values; the amount and the expiry
// are parsed again (the expiry against now), and may still fail.
func (f *Form) invoiceRequest(now time.Time) (backend.InvoiceLinkRequest, string, error) {
	v := &f.inv
	amount, err := parseAmount(v.amount, v.currency)
	if err != nil {
		return backend.InvoiceLinkRequest{}, "amount", err
	}
	expires, err := ParseExpiry(v.expires, now)
	if err != nil {
		return backend.InvoiceLinkRequest{}, "expires", err
	}
	var phone string // checked when the field was left; read the same way again
	if trim(v.phone) != "" {
		if phone, err = NormalizePhone(v.phone); err != nil {
			return backend.InvoiceLinkRequest{}, "phone", err
		}
	}
	return backend.InvoiceLinkRequest{
		MerchantID:    f.d.MerchantID,
		Amount:        money.Amount{Value: amount, Currency: v.currency},
		Description:   trim(v.description),
		OrderNo:       trim(v.orderNo),
		Expires:       expires,
		DualMode:      v.hold,
		CustomerEmail: trim(v.email),
		CustomerPhone: phone,
		ReturnURL:     trim(v.returnURL),
		CallbackURL:   trim(v.callbackURL),
	}, "", nil
}

func invoiceSummary(r backend.InvoiceLinkRequest) []string {
	var s summary
	s.add("Merchant", r.MerchantID)
	s.add("Amount", r.Amount.Display())
	s.add("Description", r.Description)
	s.add("Order number", r.OrderNo)
	s.add("Customer e-mail", r.CustomerEmail)
	s.add("Customer phone", r.CustomerPhone)
	if !r.Expires.IsZero() {
		s.add("Expires", FormatExpiry(r.Expires))
	}
	if r.DualMode {
		s.add("Hold (dual mode)", "yes: the money is held until captured")
	} else {
		s.add("Hold (dual mode)", "no: the money is charged at once")
	}
	s.add("Return page", r.ReturnURL)
	s.add("Callback address", r.CallbackURL)
	return s
}

// --- sticker ------------------------------------------------------------
//
// Page "Sticker": type (Sbp, the only one the spec names), cashlink mode
// (No by default), amount in RUB (SBP is roubles only; ui.ParseAmount,
// above 0), description (required, ≤ MaxDescription). Page "Details":
// product code (optional, ≤ MaxProductCode), payment purpose (optional,
// ≤ MaxPaymentPurpose), callback address (optional, ValidHTTPSURL).

func (f *Form) stickerPages() []page {
	v := &f.stk
	return []page{
		{title: "Sticker", fields: []*field{
			f.choice("stickerType", "Sticker type",
				[]huh.Option[string]{huh.NewOption("SBP (Faster Payments System)", stickerTypeSbp)},
				&v.stickerType, func(s string) error {
					if s != stickerTypeSbp {
						return errors.New("choose a sticker type")
					}
					return nil
				}),
			yesNo("cashlink", "Cashlink mode? ", &v.cashlink),
			f.input("amount", "Amount, "+stickerCurrency, "e.g. 1,500.00", &v.amount, func(s string) error {
				_, err := parseAmount(s, stickerCurrency)
				return err
			}),
			f.input("description", "Description", "e.g. Coffee to go", &v.description,
				required("a description of the sticker", MaxDescription)),
		}},
		{title: "Details", fields: []*field{
			f.input("productCode", "Product code (optional)", "e.g. SKU-0042", &v.productCode, text(MaxProductCode)),
			f.input("paymentPurpose", "Payment purpose (optional)", "e.g. Payment for coffee", &v.paymentPurpose,
				text(MaxPaymentPurpose)),
			f.input("callbackURL", "Callback address (optional, https)", "e.g. https://shop.example.com/notify",
				&v.callbackURL, optional(ValidHTTPSURL)),
		}},
	}
}

func (f *Form) stickerRequest() (backend.StickerRequest, string, error) {
	v := &f.stk
	amount, err := parseAmount(v.amount, stickerCurrency)
	if err != nil {
		return backend.StickerRequest{}, "amount", err
	}
	return backend.StickerRequest{
		MerchantID:     f.d.MerchantID,
		StickerType:    v.stickerType,
		Cashlink:       v.cashlink,
		Description:    trim(v.description),
		ProductCode:    trim(v.productCode),
		PaymentPurpose: trim(v.paymentPurpose),
		Amount:         money.Amount{Value: amount, Currency: stickerCurrency},
		CallbackURL:    trim(v.callbackURL),
	}, "", nil
}

func stickerSummary(r backend.StickerRequest) []string {
	var s summary
	s.add("Merchant", r.MerchantID)
	s.add("Sticker type", r.StickerType)
	s.add("Cashlink", yes(r.Cashlink))
	s.add("Amount", r.Amount.Display())
	s.add("Description", r.Description)
	s.add("Product code", r.ProductCode)
	s.add("Payment purpose", r.PaymentPurpose)
	s.add("Callback address", r.CallbackURL)
	return s
}

// --- tokenization link --------------------------------------------------
//
// Page "Customer": the token type (recurring, the only one the endpoint
// lists; shown, not asked), customer account (required, ≤ MaxAccount),
// customer e-mail (optional, ValidEmail), purpose (optional, ≤ MaxPurpose).
// Page "Addresses": return page (optional, ValidURL), callback address
// (optional, ValidHTTPSURL). No card data: the customer types it on the page.

func (f *Form) tokenizationPages() []page {
	v := &f.tok
	note := huh.NewNote().Title("Token type: " + tokenType + " (the customer saves a card on the page)")
	return []page{
		{title: "Customer", fields: []*field{
			{Field: note, key: "type"},
			f.input("account", "Customer account (in your system)", "e.g. client-1042", &v.account,
				required("the customer's account in your system", MaxAccount)),
			f.input("email", "Customer e-mail (optional)", "e.g. name@example.com", &v.email, optional(ValidEmail)),
			f.input("purpose", "Purpose (optional)", "e.g. Monthly subscription", &v.purpose, text(MaxPurpose)),
		}},
		{title: "Addresses", fields: []*field{
			f.input("returnURL", "Return page (optional)", "e.g. https://shop.example.com/done",
				&v.returnURL, optional(ValidURL)),
			f.input("callbackURL", "Callback address (optional, https)", "e.g. https://shop.example.com/notify",
				&v.callbackURL, optional(ValidHTTPSURL)),
		}},
	}
}

func (f *Form) tokenizationRequest() backend.TokenizationLinkRequest {
	v := &f.tok
	return backend.TokenizationLinkRequest{
		MerchantID:      f.d.MerchantID,
		Purpose:         trim(v.purpose),
		CustomerAccount: trim(v.account),
		CustomerEmail:   trim(v.email),
		ReturnURL:       trim(v.returnURL),
		CallbackURL:     trim(v.callbackURL),
	}
}

func tokenizationSummary(r backend.TokenizationLinkRequest) []string {
	var s summary
	s.add("Merchant", r.MerchantID)
	// The backend adds these two (backend/overv2.go, CreateTokenizationLink).
	s.add("Token type", tokenType)
	s.add("Payment method", tokenPaymentType)
	s.add("Purpose", r.Purpose)
	s.add("Customer account", r.CustomerAccount)
	s.add("Customer e-mail", r.CustomerEmail)
	s.add("Return page", r.ReturnURL)
	s.add("Callback address", r.CallbackURL)
	return s
}

// --- helpers ------------------------------------------------------------

// phoneHint is the line under the phone field: what will be sent, or how
// it is sent while the field is empty. A number that cannot be read shows
// its error instead (field.View), once it is left or submitted.
// The line is there in every case, so the form does not change height as
// the number is typed.
func phoneHint(typed string) string {
	if n, err := NormalizePhone(typed); err == nil {
		return "will be sent as " + n
	}
	return "sent as digits with the country code: " + examplePhone + " → 79161234567"
}

// FormatExpiry shows an expiry both ways, to the minute: "2026-11-22 12:00
// local (UTC+03:00), 2026-11-22 09:00 UTC". Local is t's own zone.
func FormatExpiry(t time.Time) string {
	return t.Format(ExpiryLayout) + " local (UTC" + t.Format("-07:00") + "), " +
		t.UTC().Format(ExpiryLayout) + " UTC"
}

// exampleExpiry is a local time a week from now at 18:00, for the hints.
func exampleExpiry(now time.Time) string {
	d := now.AddDate(0, 0, 7)
	return time.Date(d.Year(), d.Month(), d.Day(), 18, 0, 0, 0, now.Location()).Format(ExpiryLayout)
}

// summary collects "Label: value" lines, leaving out empty values (not sent).
type summary []string

func (s *summary) add(label, value string) {
	if value != "" {
		*s = append(*s, label+": "+value)
	}
}

func trim(s string) string { return strings.TrimSpace(s) }

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
