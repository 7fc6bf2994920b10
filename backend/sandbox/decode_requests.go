package sandbox

import "time"

// Each request's members as the body gives them, and the request the
// store takes (requests.go) made from them.

type invoiceIn struct {
	Description string         `json:"description"`
	OrderNo     string         `json:"orderNo"`
	Expires     string         `json:"expires"`
	Params      map[string]any `json:"params"`
}

func (in *invoiceIn) parse(problems *[]string) Invoice {
	if in == nil {
		return Invoice{}
	}
	inv := Invoice{Description: in.Description, OrderNo: in.OrderNo, Params: in.Params}
	maxLen("invoice.description", in.Description, maxDescription, problems)
	maxLen("invoice.orderNo", in.OrderNo, maxOrderNo, problems)
	checkParams("invoice.params", in.Params, problems)
	if in.Expires != "" {
		t, ok := parseDate(in.Expires)
		switch {
		case !ok:
			*problems = append(*problems, "invoice.expires is not an RFC 3339 date")
		case !representable(t):
			*problems = append(*problems, "invoice.expires is out of range: "+dateRange)
			t = time.Time{}
		}
		inv.Expires = t
	}
	return inv
}

type customerIn struct {
	Email   string `json:"email"`
	Phone   string `json:"phone"`
	IP      string `json:"ip"`
	Account string `json:"account"`
}

func (c *customerIn) get(problems *[]string) Customer {
	if c == nil {
		return Customer{}
	}
	maxLen("customer.email", c.Email, maxEmail, problems)
	maxLen("customer.phone", c.Phone, maxPhone, problems)
	maxLen("customer.ip", c.IP, maxIP, problems)
	maxLen("customer.account", c.Account, maxAccount, problems)
	return Customer{Email: c.Email, Phone: c.Phone, IP: c.IP, Account: c.Account}
}

type protocolIn struct {
	ReturnURL          string `json:"returnUrl"`
	CallbackURL        string `json:"callbackUrl"`
	ThreeDSCompleteURL string `json:"threeDSCompleteUrl"`
}

func (p *protocolIn) get(problems *[]string) Protocol {
	if p == nil {
		return Protocol{}
	}
	maxLen("protocol.returnUrl", p.ReturnURL, maxURL, problems)
	maxLen("protocol.callbackUrl", p.CallbackURL, maxURL, problems)
	maxLen("protocol.threeDSCompleteUrl", p.ThreeDSCompleteURL, maxURL, problems)
	return Protocol{ReturnURL: p.ReturnURL, CallbackURL: p.CallbackURL, ThreeDSCompleteURL: p.ThreeDSCompleteURL}
}

type tokenizationIn struct {
	Type        string `json:"type"`
	Purpose     string `json:"purpose"`
	CallbackURL string `json:"callbackUrl"`
}

func (t *tokenizationIn) get(problems *[]string) *TokenizationDetails {
	if t == nil {
		return nil
	}
	maxLen("tokenization.purpose", t.Purpose, maxPurpose, problems)
	maxLen("tokenization.callbackUrl", t.CallbackURL, maxURL, problems)
	return &TokenizationDetails{Type: t.Type, Purpose: t.Purpose, CallbackURL: t.CallbackURL}
}

type cardIn struct {
	PAN    string `json:"pan"`
	Expiry string `json:"expiry"`
	CVC    string `json:"cvc"`
}

func (c *cardIn) get() *CardData {
	if c == nil {
		return nil
	}
	return &CardData{PAN: c.PAN, Expiry: c.Expiry, CVC: c.CVC}
}

type paymentDataIn struct {
	PaymentMethod string  `json:"paymentMethod"`
	Card          *cardIn `json:"card"`
	DSRP          *struct {
		Type       string `json:"type"`
		Cryptogram string `json:"cryptogram"`
		ECI        string `json:"eci"`
	} `json:"dsrp"`
	AuthorizationCode string `json:"authorizationCode"`
	Account           string `json:"account"`
	Phone             string `json:"phone"`
	Token             *struct {
		ID string `json:"id"`
	} `json:"token"`
	StickerID string `json:"stickerId"`
}

type deviceIn struct {
	Language         string `json:"language"`
	AcceptHeader     string `json:"acceptHeader"`
	UserAgent        string `json:"userAgent"`
	ColorDepth       string `json:"colorDepth"`
	ScreenHeight     string `json:"screenHeight"`
	ScreenWidth      string `json:"screenWidth"`
	UTCOffsetMinutes string `json:"utcOffsetMinutes"`
}

type paymentIn struct {
	MerchantID   string          `json:"merchantId"`
	DualMode     bool            `json:"dualMode"`
	TestMode     bool            `json:"testMode"`
	Tokenization *tokenizationIn `json:"tokenization"`
	Invoice      *invoiceIn      `json:"invoice"`
	Amount       *amountIn       `json:"amount"`
	PaymentData  *paymentDataIn  `json:"paymentData"`
	Protocol     *protocolIn     `json:"protocol"`
	Customer     *customerIn     `json:"customer"`
	Device       *deviceIn       `json:"device"`
}

func (in *paymentIn) request() PaymentRequest {
	var problems []string
	req := PaymentRequest{
		MerchantID: in.MerchantID, DualMode: in.DualMode, TestMode: in.TestMode,
		Invoice: in.Invoice.parse(&problems), Protocol: in.Protocol.get(&problems), Customer: in.Customer.get(&problems),
		Tokenization: in.Tokenization.get(&problems),
	}
	req.Amount, req.amountBad = in.Amount.parse("amount", &problems)
	if d := in.PaymentData; d != nil {
		maxLen("paymentData.stickerId", d.StickerID, maxID, &problems)
		req.PaymentMethod, req.Card, req.StickerID = d.PaymentMethod, d.Card.get(), d.StickerID
		if d.DSRP != nil {
			req.DSRP = &DSRP{Type: d.DSRP.Type, Cryptogram: d.DSRP.Cryptogram, ECI: d.DSRP.ECI}
		}
		if d.Token != nil {
			if d.Token.ID == "" {
				problems = append(problems, "paymentData.token.id is required")
			}
			maxLen("paymentData.token.id", d.Token.ID, maxID, &problems)
			req.TokenID = d.Token.ID
		}
	}
	req.problems = problems
	return req
}

type invoiceReqIn struct {
	MerchantID    string          `json:"merchantId"`
	DualMode      bool            `json:"dualMode"`
	TestMode      bool            `json:"testMode"`
	Tokenization  *tokenizationIn `json:"tokenization"`
	Invoice       *invoiceIn      `json:"invoice"`
	Amount        *amountIn       `json:"amount"`
	PaymentMethod string          `json:"paymentMethod"`
	Protocol      *protocolIn     `json:"protocol"`
	Customer      *customerIn     `json:"customer"`
}

func (in *invoiceReqIn) request() InvoiceRequest {
	var problems []string
	req := InvoiceRequest{
		MerchantID: in.MerchantID, DualMode: in.DualMode, TestMode: in.TestMode,
		Tokenization: in.Tokenization.get(&problems), Invoice: in.Invoice.parse(&problems),
		PaymentMethod: in.PaymentMethod, Protocol: in.Protocol.get(&problems), Customer: in.Customer.get(&problems),
	}
	req.Amount, req.amountBad = in.Amount.parse("amount", &problems)
	req.problems = problems
	return req
}

type completeIn struct {
	Code           string `json:"code"`
	ThreeDSCompInd string `json:"threeDSCompInd"`
	CRes           string `json:"cres"`
	PARes          string `json:"PARes"`
}

type confirmIn struct {
	Amount *amountIn `json:"amount"`
}

type refundIn struct {
	PaymentID string    `json:"paymentId"`
	Amount    *amountIn `json:"amount"`
}

type tokenizationReqIn struct {
	MerchantID    string      `json:"merchantId"`
	TestMode      bool        `json:"testMode"`
	Type          string      `json:"type"`
	Purpose       string      `json:"purpose"`
	PaymentMethod string      `json:"paymentMethod"`
	CallbackURL   string      `json:"callbackUrl"`
	ReturnURL     string      `json:"returnUrl"`
	Customer      *customerIn `json:"customer"`
}

func (in *tokenizationReqIn) request() TokenizationRequest {
	var problems []string
	maxLen("purpose", in.Purpose, maxPurpose, &problems)
	maxLen("callbackUrl", in.CallbackURL, maxURL, &problems)
	maxLen("returnUrl", in.ReturnURL, maxURL, &problems)
	req := TokenizationRequest{
		MerchantID: in.MerchantID, TestMode: in.TestMode, Type: in.Type, Purpose: in.Purpose,
		PaymentMethod: in.PaymentMethod, CallbackURL: in.CallbackURL, ReturnURL: in.ReturnURL,
		Customer: in.Customer.get(&problems),
	}
	req.problems = problems
	return req
}

type paymentTokenIn struct {
	MerchantID  string `json:"merchantId"`
	TestMode    bool   `json:"testMode"`
	Type        string `json:"type"`
	Purpose     string `json:"purpose"`
	PaymentData *struct {
		PaymentMethod string  `json:"paymentMethod"`
		Card          *cardIn `json:"card"`
	} `json:"paymentData"`
	Protocol *protocolIn `json:"protocol"`
	Customer *customerIn `json:"customer"`
	Device   *deviceIn   `json:"device"`
}

func (in *paymentTokenIn) request() PaymentTokenRequest {
	var problems []string
	maxLen("purpose", in.Purpose, maxPurpose, &problems)
	req := PaymentTokenRequest{
		MerchantID: in.MerchantID, TestMode: in.TestMode, Type: in.Type, Purpose: in.Purpose,
		Protocol: in.Protocol.get(&problems), Customer: in.Customer.get(&problems),
	}
	if d := in.PaymentData; d != nil {
		req.PaymentMethod, req.Card = d.PaymentMethod, d.Card.get()
	}
	req.problems = problems
	return req
}

type stickerIn struct {
	MerchantID     string    `json:"merchantId"`
	StickerType    string    `json:"stickerType"`
	Cashlink       bool      `json:"cashlink"`
	Description    string    `json:"description"`
	ProductCode    string    `json:"productCode"`
	PaymentPurpose string    `json:"paymentPurpose"`
	Amount         *amountIn `json:"amount"`
	CallbackURL    string    `json:"callbackUrl"`
}

type stickerUpdateIn struct {
	Active *bool `json:"active"`
}

func (in *stickerIn) request() StickerRequest {
	var problems []string
	maxLen("description", in.Description, maxDescription, &problems)
	maxLen("productCode", in.ProductCode, maxProductCode, &problems)
	maxLen("paymentPurpose", in.PaymentPurpose, maxPaymentPurpose, &problems)
	maxLen("callbackUrl", in.CallbackURL, maxURL, &problems)
	req := StickerRequest{
		MerchantID: in.MerchantID, StickerType: in.StickerType, Cashlink: in.Cashlink, Description: in.Description,
		ProductCode: in.ProductCode, PaymentPurpose: in.PaymentPurpose, CallbackURL: in.CallbackURL,
	}
	req.Amount, req.amountBad = in.Amount.parse("amount", &problems)
	req.problems = problems
	return req
}

func (in *refundIn) request() RefundRequest {
	var problems []string
	maxLen("paymentId", in.PaymentID, maxID, &problems)
	req := RefundRequest{PaymentID: in.PaymentID}
	req.Amount, req.amountBad = in.Amount.parse("amount", &problems)
	if req.Amount != nil && !req.amountBad && req.Amount.Currency == "" {
		problems = append(problems, "amount.currency is required")
	}
	req.problems = problems
	return req
}
