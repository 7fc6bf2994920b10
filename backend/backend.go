// Package backend is the adapter the UI talks to. It hides which of the
// service's two interfaces answers: domain types, one Backend interface,
// pagers for lists, and what the credentials may do. The v2 client lives in
// backend/v2, the embedded service in backend/sandbox.
package backend

import (
	"context"
	"crypto/rand"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net/url"
	"paydash/debuglog"
	"time"

	"paydash/backend/money"
)

// Backend is everything the UI can ask of the service. Every call takes a
// context so that leaving a view cancels what it asked for.
type Backend interface {
	// Describe says what the UI is connected to, for the status bar.
	Describe() Description
	// Can reports whether an action may be tried, and if not, why.
	Can(a ActionName) (ok bool, reason string)
	// Probe checks that the credentials work and learns what they may do
	// (the v1 role), and whether the service is a sandbox (Describe); the
	// UI runs it once at start, in a command.
	Probe(ctx context.Context) error
	// ServiceNow is the service's time as its answers tell it (their Date
	// headers, plus the time elapsed since on the local clock), the local
	// clock before any answer: what "today" and "7 days" are counted from,
	// whatever the laptop's clock says.
	ServiceNow() time.Time

	ListPayments(q PeriodQuery) Pager[Payment]
	// FilterPayments lists the payments of q that the service selects by f
	// on its side (the legacy interface's state and invoiceID); ok is false
	// where it cannot, and the caller filters ListPayments itself.
	FilterPayments(q PeriodQuery, f PaymentFilter) (p Pager[Payment], ok bool)
	GetPayment(ctx context.Context, id string) (Payment, error)
	// FindPaymentByOrderNo asks the service for a merchant's payment by its
	// order number (the merchant's invoice number, matched exactly), the
	// newest when several share it, whatever its date. Only v1 can answer
	// (getPaymentByInvoiceID): asked is false when the configured
	// interfaces cannot ask (v2 alone), and the caller searches the lists.
	// When both are configured, the payment v1 names is read through v2
	// with v1's view beside it. None: a KindNotFound error.
	FindPaymentByOrderNo(ctx context.Context, merchantID, orderNo string) (p Payment, asked bool, err error)
	ListRefunds(q PeriodQuery) Pager[Refund]
	GetRefund(ctx context.Context, id string) (Refund, error)
	// RefundsOfPayment lists a payment's refunds, newest first.
	RefundsOfPayment(ctx context.Context, p Payment) ([]Refund, error)
	GetToken(ctx context.Context, id string) (Token, error)
	ListStickers(q StickerQuery) Pager[Sticker]
	GetSticker(ctx context.Context, id string) (Sticker, error)

	// Transfers, their registers and documents exist only in v1. A period
	// is whole UTC days: from From's day to To's day, both included.
	ListTransfers(ctx context.Context, q DayQuery) ([]Transfer, error)
	// GetRegister reads a register in XML. When the answer cannot be read
	// (KindMalformed), its bytes still come back in Register.Raw.
	GetRegister(ctx context.Context, registerID string) (Register, error)
	ListDocuments(ctx context.Context, q DayQuery) ([]Document, error)
	GetDocument(ctx context.Context, documentID string) (DocumentContent, error)

	// The actions answer with the object as it is after the action.
	CapturePayment(ctx context.Context, r CaptureRequest) (Payment, error)
	CancelPayment(ctx context.Context, paymentID string) (Payment, error)
	RefundPayment(ctx context.Context, r RefundRequest) (Refund, error)
	// CheckRefund finds out what became of a refund sent earlier under
	// r.IdempotencyKey through the interface via, whose answer was lost. v2
	// asks again with the same key and body: the service answers with the
	// refund it made (or makes it now, if the first request never arrived),
	// so exactly one exists either way. v1 looks for a refund of the payment
	// whose externalID is the key; found is false when there is none, that
	// is, when none was made.
	CheckRefund(ctx context.Context, r RefundRequest, via Interface) (ref Refund, found bool, err error)
	RevokeToken(ctx context.Context, tokenID string) (Token, error)
	SetStickerActive(ctx context.Context, stickerID string, active bool) (Sticker, error)
	CreateInvoiceLink(ctx context.Context, r InvoiceLinkRequest) (InvoiceLink, error)
	CreateSticker(ctx context.Context, r StickerRequest) (Sticker, error)
	CreateTokenizationLink(ctx context.Context, r TokenizationLinkRequest) (TokenizationLink, error)
}

// Description is what the status bar shows about the connection.
type Description struct {
	// Sandbox: no real money is at stake. The embedded sandbox
	// (Config.Sandbox), or a service that announced itself as a paydash
	// sandbox in an answer (docs/service.md); any other service is live.
	Sandbox     bool
	BaseURL     string
	Host        string
	Interfaces  []Interface
	MerchantIDs []string
	ReadOnly    bool
}

// PeriodQuery selects a merchant's objects created in [Start, End).
type PeriodQuery struct {
	MerchantID string
	Start, End time.Time
}

// DayQuery selects the account's objects of the UTC days From..To, both included.
type DayQuery struct {
	From, To time.Time
}

// StickerQuery selects a merchant's stickers.
type StickerQuery struct {
	MerchantID string
}

// CaptureRequest captures an authorized hold; a nil Amount captures all of it.
type CaptureRequest struct {
	PaymentID string
	Amount    *money.Amount
}

// RefundRequest refunds part or all of a settled payment. IdempotencyKey
// makes a retry safe: send the same key again and the service answers with
// the first refund instead of making a second one. Leave it empty and one is
// made, but then a retry cannot be recognised; the UI always sets it.
type RefundRequest struct {
	PaymentID      string
	Amount         money.Amount
	IdempotencyKey string
}

// InvoiceLinkRequest makes a payment page to send to a customer.
type InvoiceLinkRequest struct {
	MerchantID     string
	Amount         money.Amount
	Description    string
	OrderNo        string
	Expires        time.Time
	DualMode       bool
	CustomerEmail  string
	CustomerPhone  string
	ReturnURL      string
	CallbackURL    string
	IdempotencyKey string
}

// StickerRequest registers a new payment sticker.
type StickerRequest struct {
	MerchantID     string
	StickerType    string // "Sbp" when empty
	Cashlink       bool
	Description    string
	ProductCode    string
	PaymentPurpose string
	Amount         money.Amount
	CallbackURL    string
	IdempotencyKey string
}

// TokenizationLinkRequest makes a page where a customer saves a card.
type TokenizationLinkRequest struct {
	MerchantID      string
	Purpose         string
	CustomerAccount string
	CustomerEmail   string
	ReturnURL       string
	CallbackURL     string
	IdempotencyKey  string
}

// Config is what Open needs: where the service is and who we are. Secrets
// (the token and the password) are never logged or shown.
type Config struct {
	BaseURL     string
	RootCAs     *x509.CertPool // CAs to trust besides the system's (the sandbox's own, or --ca-file)
	V2Token     string
	V1Login     string
	V1Password  string
	MerchantIDs []string // the merchants to offer; v2 cannot list them
	ReadOnly    bool     // no action may be sent
	Sandbox     bool     // connected to the embedded sandbox (for the status bar)
	Timeout     time.Duration
	// Now is the local clock the service's clock is measured on
	// (ServiceNow); nil = time.Now. Tests give their own.
	Now    func() time.Time
	Logger *slog.Logger // request log; nil = none
	// Debug is the debug log (--debug-log): each attempt of each request,
	// its method, path without query values, status and duration; nil =
	// none.
	Debug *debuglog.Logger
	// ParallelReads is how many requests a list of a period read whole (a
	// sort, a search) may have out at once, in slices of the period
	// (period.go); below 2, page after page. Only the current interface's
	// lists: the legacy one's rows carry no creation time to split by.
	ParallelReads int
}

// Open connects the adapter to the configured interfaces. It does no I/O:
// bad credentials show up on the first request, as a clear error.
func Open(cfg Config) (Backend, error) {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("base URL %q is not a valid URL (expected e.g. https://pay.example.com)", cfg.BaseURL)
	}
	hasV1 := cfg.V1Login != "" || cfg.V1Password != ""
	if hasV1 && (cfg.V1Login == "" || cfg.V1Password == "") {
		return nil, fmt.Errorf("the v1 login needs both PAYDASH_V1_LOGIN and PAYDASH_V1_PASSWORD")
	}
	// One view of the answers for both interfaces: the same service.
	ans := newAnswers(cfg.Now)
	switch {
	case cfg.V2Token != "" && hasV1:
		current, err := openV2(cfg, u.Host, ans)
		if err != nil {
			return nil, err
		}
		legacy, err := openV1(cfg, u.Host, ans)
		if err != nil {
			return nil, err
		}
		return &overBoth{overV2: current, legacy: legacy}, nil
	case cfg.V2Token != "":
		return openV2(cfg, u.Host, ans)
	case hasV1:
		return openV1(cfg, u.Host, ans)
	default:
		return nil, fmt.Errorf("no credentials: set PAYDASH_V2_TOKEN, or PAYDASH_V1_LOGIN and PAYDASH_V1_PASSWORD, in the environment or the config file")
	}
}

// NewIdempotencyKey makes a random key (UUID version 4) for a creating call.
func NewIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// notConfigured says, for a refund sent through an interface that is not
// configured now, what that interface is and how to configure it.
var notConfigured = map[Interface]string{
	V1: "the legacy interface (v1), which is not configured now; set PAYDASH_V1_LOGIN and PAYDASH_V1_PASSWORD",
	V2: "the current interface (v2), which is not configured now; set PAYDASH_V2_TOKEN",
}

// cannotCheckRefund says why a refund sent through via, under key, cannot
// be found out through here (CheckRefund asks only the interface that
// carried it): via is another interface or one paydash does not know, or
// there is no key (noKey says why that matters here). Nil when it can.
func cannotCheckRefund(op string, here, via Interface, key, noKey string) error {
	var why string
	switch {
	case via != here && notConfigured[via] != "":
		why = "it was sent through " + notConfigured[via]
	case via != here:
		why = opf("it was sent through an interface paydash does not know (%q)", via)
	case key == "":
		why = noKey
	default:
		return nil
	}
	return &Error{Kind: KindUnsupported, Op: op, Interface: here, Message: why}
}
