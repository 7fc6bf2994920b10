package v1_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
	v1 "paydash/backend/v1"
)

const bom = "\xEF\xBB\xBF"

func utc(y int, m time.Month, d, hh, mm, ss int) time.Time {
	return time.Date(y, m, d, hh, mm, ss, 0, time.UTC)
}

func dec(s string) money.Decimal { return money.MustParse(s) }

// fullPaymentJSON has every documented field of a Payment as numbers, and
// fields the spec does not know.
const fullPaymentJSON = `{"ErrorCode":0,"Payment":{
	"PaymentID":43149010,"SiteInvoiceID":"5561","SiteID":1001,"CurrencyCode":"RUB","Amount":1250.5,
	"PaymentMethod":"BankCard","PaymentCurrencyCode":"RUB","PaymentAmount":1250.50,"State":"COMPLETE",
	"Purpose":"Order 5561","IsTestPayment":false,"LastUpdateTime":"2024-05-01T10:00:05",
	"UserIdentifier":"411111******1111","UserPhoneNumber":"79001234567","ErrorCode":0,
	"RiskScore":0.37,"Nested":{"a":[1,2,{"b":null}]}},
	"ServerTime":"2024-05-01T10:00:06"}`

var fullPayment = v1.Payment{
	PaymentID: "43149010", SiteInvoiceID: "5561", SiteID: "1001", CurrencyCode: "RUB", Amount: dec("1250.5"),
	PaymentMethod: "BankCard", PaymentCurrencyCode: "RUB", PaymentAmount: dec("1250.5"), State: v1.StateComplete,
	Purpose: "Order 5561", LastUpdateTime: utc(2024, 5, 1, 10, 0, 5), UserIdentifier: "411111******1111",
	UserPhoneNumber: "79001234567",
}

// decodeWith serves body and returns what f decodes from it.
func decodeWith[T any](t *testing.T, body string, f func(*v1.Client) (T, *v1.Response, error)) (T, *v1.Response, error) {
	t.Helper()
	s := newServer(t, reply(http.StatusOK, body))
	return f(newClient(t, s))
}

func getPayment(c *v1.Client) (*v1.Payment, *v1.Response, error) {
	return c.GetPayment(context.Background(), "43149010")
}

func TestDecodePayment(t *testing.T) {
	p, resp, err := decodeWith(t, fullPaymentJSON, getPayment)
	require.NoError(t, err)
	assert.Equal(t, fullPayment, *p)
	assert.Equal(t, fullPaymentJSON, string(resp.Body), "the raw body is kept")
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	// Numbers as strings, nulls, the XML name LastUpdate, a BOM, a fractional second and a Z.
	p, _, err = decodeWith(t, bom+`{"ErrorCode":"0","Payment":{"PaymentID":"43149010","SiteInvoiceID":5561,"SiteID":"1001",
		"Amount":"1250.5","PaymentAmount":null,"State":"HOLD","Purpose":null,"IsTestPayment":"true",
		"LastUpdate":"2024-05-01T10:00:05.250Z","UserPhoneNumber":null,"ErrorCode":"-17","PaymentMethod":null}}`, getPayment)
	require.NoError(t, err)
	assert.Equal(t, v1.Payment{
		PaymentID: "43149010", SiteInvoiceID: "5561", SiteID: "1001", Amount: dec("1250.5"), State: v1.StateHold,
		IsTestPayment: true, LastUpdateTime: time.Date(2024, 5, 1, 10, 0, 5, 250e6, time.UTC), ErrorCode: -17,
	}, *p)

	// An exponent and an offset, read exactly.
	p, _, err = decodeWith(t, `{"ErrorCode":0,"Payment":{"PaymentID":4.3149010e7,"Amount":1.2505e3,"LastUpdateTime":"2024-05-01T13:00:05+03:00"}}`, getPayment)
	require.NoError(t, err)
	assert.Equal(t, "4.3149010e7", p.PaymentID, "an id is kept as sent")
	assert.Equal(t, dec("1250.5"), p.Amount)
	assert.Equal(t, utc(2024, 5, 1, 10, 0, 5), p.LastUpdateTime)
}

func TestDecodePaymentXML(t *testing.T) {
	// Not an answer the service gives (xml=1 is only for documents,
	// transfers and registers) but the types read XML alike.
	p, _, err := decodeWith(t, bom+`<?xml version="1.0" encoding="utf-8"?>
<Response xmlns="urn:example">
  <ErrorCode>0</ErrorCode>
  <Payment>
    <PaymentID> 43149010 </PaymentID><SiteInvoiceID>5561</SiteInvoiceID><SiteID>1001</SiteID>
    <CurrencyCode>RUB</CurrencyCode><Amount>1250.5</Amount><PaymentMethod>BankCard</PaymentMethod>
    <PaymentCurrencyCode>RUB</PaymentCurrencyCode><PaymentAmount>1250.50</PaymentAmount>
    <State>COMPLETE</State><Purpose>Order 5561</Purpose><IsTestPayment>false</IsTestPayment>
    <LastUpdate>2024-05-01T10:00:05</LastUpdate><UserIdentifier>411111******1111</UserIdentifier>
    <UserPhoneNumber>79001234567</UserPhoneNumber><ErrorCode/><Unknown><Deep>1</Deep></Unknown>
  </Payment>
</Response>`, getPayment)
	require.NoError(t, err)
	assert.Equal(t, fullPayment, *p)
}

func TestDecodeRefund(t *testing.T) {
	refund := func(c *v1.Client) (*v1.Refund, *v1.Response, error) {
		return c.RefundPayment(context.Background(), v1.RefundRequest{PaymentID: "1", Amount: "10.50"})
	}
	r, _, err := decodeWith(t, `{"ErrorCode":0,"Refund":{"RefundID":77,"ExternalID":null,"PaymentID":43149010,
		"Amount":10.5,"ErrorCode":null,"ErrorDesc":null,"State":"EXECUTING","Extra":[1]}}`, refund)
	require.NoError(t, err)
	assert.Equal(t, v1.Refund{RefundID: "77", PaymentID: "43149010", Amount: dec("10.5"), State: v1.RefundExecuting}, *r)

	r, _, err = decodeWith(t, `{"ErrorCode":0,"Refund":{"RefundID":"77","ExternalID":"R-1","PaymentID":"43149010",
		"Amount":"10.50","ErrorCode":"-19","ErrorDesc":"not \u001b[31menough","State":"FAILURE","LastUpdate":"2024-05-02T08:00:00"}}`, refund)
	require.NoError(t, err)
	assert.Equal(t, v1.Refund{RefundID: "77", ExternalID: "R-1", PaymentID: "43149010", Amount: dec("10.5"),
		ErrorCode: -19, ErrorDesc: "not \x1b[31menough", State: v1.RefundFailure, LastUpdate: utc(2024, 5, 2, 8, 0, 0)}, *r,
		"fields are data, kept as sent; only error messages are cleaned")
}

func TestDecodeLists(t *testing.T) {
	ctx := context.Background()
	l, _, err := decodeWith(t, `{"ErrorCode":0,"Response":{"Overflow":true,"Payments":[
		{"PaymentID":3,"State":"COMPLETE","LastUpdateTime":"2024-05-01T10:00:00"},
		{"PaymentID":"2","State":"CANCELLED","ErrorCode":-10},
		{"PaymentID":1,"State":"INITIATED","Amount":null}],"Total":null}}`,
		func(c *v1.Client) (*v1.PaymentList, *v1.Response, error) {
			return c.ListPaymentsFilter(ctx, v1.PaymentFilter{})
		})
	require.NoError(t, err)
	assert.True(t, l.Overflow)
	require.Len(t, l.Payments, 3)
	assert.Equal(t, []string{"3", "2", "1"}, []string{l.Payments[0].PaymentID, l.Payments[1].PaymentID, l.Payments[2].PaymentID})
	assert.Equal(t, -10, l.Payments[1].ErrorCode)

	l, _, err = decodeWith(t, `{"ErrorCode":0,"Response":{"Overflow":"false","Payments":null}}`,
		func(c *v1.Client) (*v1.PaymentList, *v1.Response, error) {
			return c.ListPaymentsFilter(ctx, v1.PaymentFilter{})
		})
	require.NoError(t, err)
	assert.False(t, l.Overflow)
	assert.Empty(t, l.Payments)

	rl, _, err := decodeWith(t, `{"ErrorCode":0,"Response":{"Overflow":false,"Refunds":[
		{"RefundID":9,"ExternalID":"X","PaymentID":3,"Amount":"1.5","State":"SUCCESS","LastUpdate":"2024-05-01T10:00:00"}]}}`,
		func(c *v1.Client) (*v1.RefundList, *v1.Response, error) { return c.ListRefunds(ctx, v1.RefundFilter{}) })
	require.NoError(t, err)
	assert.False(t, rl.Overflow)
	assert.Equal(t, []v1.Refund{{RefundID: "9", ExternalID: "X", PaymentID: "3", Amount: dec("1.5"), State: v1.RefundSuccess,
		LastUpdate: utc(2024, 5, 1, 10, 0, 0)}}, rl.Refunds)
}

var (
	wantDocuments = []v1.Document{
		{Created: utc(2024, 5, 1, 3, 0, 0), Description: "Act for April", DocumentID: "501", FileName: "act-2024-04.pdf"},
		{Created: utc(2024, 5, 2, 3, 0, 0), Description: "Payments 2024-05-01", DocumentID: "502", FileName: "payments.csv"},
	}
	wantTransfers = []v1.Transfer{
		{Created: utc(2024, 5, 2, 0, 0, 0), CurrencyCode: "RUB", TransferAmount: dec("12345.67"), PaymentOrderID: "9001", RegisterID: "301"},
	}
	wantRegister = v1.Register{
		PeriodFrom: utc(2024, 5, 1, 0, 0, 0), PeriodTo: utc(2024, 5, 1, 23, 59, 59), RegisterID: "301", RegisterNumber: "R-2024-0501",
		Operations: []v1.Operation{
			{OperationID: "43149010", SiteAlias: "1001", InvoiceID: "5561", Stamp: utc(2024, 5, 1, 10, 0, 5), CurrencyCode: "RUB",
				OperationAmount: dec("1250.5"), TransferAmount: dec("1225.49")},
			{OperationID: "77", SiteAlias: "1001", InvoiceID: "5561", Stamp: utc(2024, 5, 1, 12, 0, 0), CurrencyCode: "RUB",
				OperationAmount: dec("-100"), TransferAmount: dec("-100")},
		},
	}
)

const (
	documentsJSON = `{"ErrorCode":0,"Response":{"Documents":[
		{"Created":"2024-05-01T03:00:00","Description":"Act for April","DocumentID":501,"FileName":"act-2024-04.pdf"},
		{"Created":"2024-05-02T03:00:00","Description":"Payments 2024-05-01","DocumentID":"502","FileName":"payments.csv","Size":10}]}}`
	documentsXML = `<?xml version="1.0" encoding="UTF-8"?>
<Response><ErrorCode>0</ErrorCode><Documents>
<Document><Created>2024-05-01T03:00:00</Created><Description>Act for April</Description><DocumentID>501</DocumentID><FileName>act-2024-04.pdf</FileName></Document>
<Document><Size>10</Size><Created>2024-05-02T03:00:00</Created><Description>Payments 2024-05-01</Description><DocumentID>502</DocumentID><FileName>payments.csv</FileName></Document>
</Documents></Response>`
	transfersJSON = `{"ErrorCode":0,"Response":{"Transfers":[
		{"Created":"2024-05-02T00:00:00","CurrencyCode":"RUB","TransferAmount":"12345.67","PaymentOrderID":9001,"RegisterID":301}]}}`
	transfersXML = `<Response><ErrorCode>0</ErrorCode><Transfers><Transfer><Created>2024-05-02T00:00:00</Created>
<CurrencyCode>RUB</CurrencyCode><TransferAmount>12345.67</TransferAmount><PaymentOrderID>9001</PaymentOrderID>
<RegisterID>301</RegisterID><Bank>X</Bank></Transfer></Transfers></Response>`
	registerJSON = `{"ErrorCode":0,"Response":{"Register":{"PeriodFrom":"2024-05-01T00:00:00","PeriodTo":"2024-05-01T23:59:59",
		"RegisterID":301,"RegisterNumber":"R-2024-0501","Operations":[
		{"OperationID":43149010,"SiteAlias":1001,"InvoiceID":"5561","Stamp":"2024-05-01T10:00:05","CurrencyCode":"RUB","OperationAmount":1250.5,"TransferAmount":1225.49},
		{"OperationID":"77","SiteAlias":"1001","InvoiceID":"5561","Stamp":"2024-05-01T12:00:00","CurrencyCode":"RUB","OperationAmount":"-100","TransferAmount":-100.00}]}}}`
	registerXML = `<?xml version="1.0" encoding="UTF-8"?>
<Response>
  <ErrorCode>0</ErrorCode>
  <Register>
    <PeriodFrom>2024-05-01T00:00:00</PeriodFrom><PeriodTo>2024-05-01T23:59:59</PeriodTo>
    <RegisterID>301</RegisterID><RegisterNumber>R-2024-0501</RegisterNumber>
    <Operations>
      <Operation><OperationID>43149010</OperationID><SiteAlias>1001</SiteAlias><InvoiceID>5561</InvoiceID>
        <Stamp>2024-05-01T10:00:05</Stamp><CurrencyCode>RUB</CurrencyCode><OperationAmount>1250.5</OperationAmount>
        <TransferAmount>1225.49</TransferAmount><Kind>payment</Kind></Operation>
      <Operation><OperationID>77</OperationID><SiteAlias>1001</SiteAlias><InvoiceID>5561</InvoiceID>
        <Stamp>2024-05-01T12:00:00</Stamp><CurrencyCode>RUB</CurrencyCode><OperationAmount>-100</OperationAmount>
        <TransferAmount>-100.00</TransferAmount></Operation>
    </Operations>
  </Register>
</Response>`
)

func TestDecodeDocumentsTransfersRegister(t *testing.T) {
	ctx := context.Background()
	docs := func(c *v1.Client) ([]v1.Document, *v1.Response, error) {
		return c.ListDocuments(ctx, v1.PeriodFilter{PeriodFrom: may1, PeriodTo: may31, XML: true})
	}
	transfers := func(c *v1.Client) ([]v1.Transfer, *v1.Response, error) {
		return c.ListTransfers(ctx, v1.PeriodFilter{PeriodFrom: may1, PeriodTo: may31, XML: true})
	}
	register := func(c *v1.Client) (*v1.Register, *v1.Response, error) { return c.GetTransferRegister(ctx, "301", true) }

	for _, body := range []string{documentsJSON, documentsXML, bom + documentsXML, bom + documentsJSON} {
		got, _, err := decodeWith(t, body, docs)
		require.NoError(t, err)
		assert.Equal(t, wantDocuments, got)
	}
	for _, body := range []string{transfersJSON, transfersXML, bom + transfersXML} {
		got, _, err := decodeWith(t, body, transfers)
		require.NoError(t, err)
		assert.Equal(t, wantTransfers, got)
	}
	for _, body := range []string{registerJSON, registerXML, bom + registerXML} {
		got, _, err := decodeWith(t, body, register)
		require.NoError(t, err)
		assert.Equal(t, wantRegister, *got)
	}

	// Empty lists in both forms, and the payload one level down in a
	// Response element (the spec's "a root with ErrorCode and Response").
	for _, body := range []string{
		`{"ErrorCode":0,"Response":{"Documents":[]}}`, `{"ErrorCode":0,"Response":{}}`,
		`<Response><ErrorCode>0</ErrorCode><Documents/></Response>`, `<Response><ErrorCode>0</ErrorCode></Response>`,
	} {
		got, _, err := decodeWith(t, body, docs)
		require.NoError(t, err, body)
		assert.Empty(t, got, body)
	}
	got, _, err := decodeWith(t, `<Answer><ErrorCode>0</ErrorCode><Response><Transfers><Transfer><RegisterID>301</RegisterID></Transfer></Transfers></Response></Answer>`, transfers)
	require.NoError(t, err)
	assert.Equal(t, []v1.Transfer{{RegisterID: "301"}}, got)
}

func TestGetDocumentContent(t *testing.T) {
	pdf := "%PDF-1.4\n\x00\x01binary\n%%EOF"
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch r.URL.Query().Get("documentID") {
		case "501":
			w.Header().Set("Content-Type", "application/pdf")
			w.Header().Set("Content-Disposition", `attachment; filename="act-2024-04.pdf"`)
			_, _ = io.WriteString(w, pdf)
		case "502":
			w.Header().Set("Content-Type", "text/csv; charset=utf-8")
			w.Header().Set("Content-Disposition", `attachment; filename="payments.csv"`)
			_, _ = io.WriteString(w, "{id},amount\n1,10.50\n")
		case "503":
			_, _ = io.WriteString(w, `{"ErrorCode":-1,"Message":"document 503 not found"}`) // mislabelled as text/plain
		case "504":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"ErrorCode":-6,"Message":"insufficient rights"}`)
		default:
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `<html>oops</html>`)
		}
	})
	c := newClient(t, s)
	ctx := context.Background()

	d, resp, err := c.GetDocumentContent(ctx, "501")
	require.NoError(t, err)
	assert.Equal(t, []byte(pdf), d.Data)
	assert.Equal(t, "application/pdf", d.ContentType)
	assert.Equal(t, "act-2024-04.pdf", d.FileName)
	assert.Equal(t, []byte(pdf), resp.Body)

	d, _, err = c.GetDocumentContent(ctx, "502")
	require.NoError(t, err)
	assert.Equal(t, "{id},amount\n1,10.50\n", string(d.Data), "a CSV starting with { is still a document")
	assert.Equal(t, "text/csv; charset=utf-8", d.ContentType)
	assert.Equal(t, "payments.csv", d.FileName)

	_, _, err = c.GetDocumentContent(ctx, "503")
	e, ok := v1.AsError(err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, v1.CodeUnknown, e.Code)
	assert.Equal(t, "document 503 not found", e.Message)

	_, _, err = c.GetDocumentContent(ctx, "504")
	assert.True(t, v1.IsNoAccess(err), "%v", err)

	_, _, err = c.GetDocumentContent(ctx, "505")
	assert.ErrorIs(t, err, v1.ErrMalformedResponse)
}

// Bodies that are not the answer are a clear error, not a panic and not a
// zero value passed off as data.
func TestMalformedAnswers(t *testing.T) {
	for _, body := range []string{
		``, `   `, bom, `null`, `[]`, `"x"`, `{`, `{"ErrorCode":0}`, `{"ErrorCode":0,"Payment":null}`, `{"Payment":null}`,
		`{"ErrorCode":0,"Refund":{"RefundID":1}}`, `{"ErrorCode":0,"Payment":"yes"}`, `{"ErrorCode":0,"Payment":[1]}`,
		`{"ErrorCode":0,"Payment":{"PaymentID":{"a":1}}}`, `{"ErrorCode":0,"Payment":{"Amount":"ten"}}`,
		`{"ErrorCode":0,"Payment":{"Amount":1.23456}}`, `{"ErrorCode":0,"Payment":{"LastUpdateTime":"yesterday"}}`,
		`{"ErrorCode":0,"Payment":{"IsTestPayment":"maybe"}}`, `{"ErrorCode":"x","Payment":{}}`,
		`{"ErrorCode":0.5,"Payment":{}}`, `<html><body>Service Unavailable</body></html>`, `<Response><ErrorCode>0</ErrorCode>`,
		`<Response><ErrorCode>0</ErrorCode></Response>`, `<?xml version="1.0" encoding="KOI8-R"?><Response/>`,
		`<Response><ErrorCode>0</ErrorCode><Payment><Amount>1e400</Amount></Payment></Response>`,
	} {
		p, resp, err := decodeWith(t, body, getPayment)
		require.ErrorIs(t, err, v1.ErrMalformedResponse, "body %q", body)
		assert.Nil(t, p)
		assert.NotNil(t, resp)
		assert.Equal(t, body, string(resp.Body))
		assert.False(t, v1.IsServerFailure(err))
	}
	// A Message with escape sequences reaches the error cleaned.
	_, _, err := decodeWith(t, `{"ErrorCode":0,"Payment":{"Amount":"\u001b[2J1"}}`, getPayment)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "\x1b")
}

func TestErrorsAreReadInBothForms(t *testing.T) {
	for _, body := range []string{
		`{"ErrorCode":-13,"Message":"payment 5 not found"}`,
		`{"ErrorCode":"-13","Message":"payment 5 not found","Payment":null}`,
		bom + `{"ErrorCode":-13,"Message":"payment 5 not found","Payment":{"PaymentID":[]}}`,
		`<?xml version="1.0"?><Response><ErrorCode>-13</ErrorCode><Message>payment 5 not found</Message></Response>`,
		`<Answer><Response><ErrorCode>-13</ErrorCode><Message>payment 5 not found</Message></Response></Answer>`,
	} {
		_, _, err := decodeWith(t, body, getPayment)
		require.True(t, v1.IsNotFound(err), "%s: %v", body, err)
		var e *v1.Error
		require.True(t, errors.As(err, &e))
		assert.Equal(t, v1.Error{Code: -13, Message: "payment 5 not found", Operation: "getPayment"}, *e)
		assert.Equal(t, "v1: getPayment: error -13 (Payment cannot be found by the account number): payment 5 not found", err.Error())
	}
}

func TestLargeRegisterDecodes(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<Response><ErrorCode>0</ErrorCode><Register><RegisterID>1</RegisterID><Operations>`)
	for range 20000 {
		b.WriteString(`<Operation><OperationID>43149010</OperationID><SiteAlias>1001</SiteAlias><InvoiceID>5561</InvoiceID><Stamp>2024-05-01T10:00:05</Stamp><CurrencyCode>RUB</CurrencyCode><OperationAmount>1250.50</OperationAmount><TransferAmount>1225.49</TransferAmount></Operation>`)
	}
	b.WriteString(`</Operations></Register></Response>`)
	r, _, err := decodeWith(t, b.String(), func(c *v1.Client) (*v1.Register, *v1.Response, error) {
		return c.GetTransferRegister(context.Background(), "1", true)
	})
	require.NoError(t, err)
	assert.Len(t, r.Operations, 20000)
}
