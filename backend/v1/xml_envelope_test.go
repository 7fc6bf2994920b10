package v1

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The two readings of "a root with ErrorCode and Response" (docs/service.md,
// v1 XML answers): today's, the sandbox's, with the payload beside
// ErrorCode in a root named Response; and a root of any name holding
// ErrorCode and a Response element with the payload inside.
var xmlShapes = map[string]func(payload string) string{
	"today's: payload beside ErrorCode": func(p string) string {
		return `<Response><ErrorCode>0</ErrorCode>` + p + `</Response>`
	},
	"spec: payload in Response, root Answer": func(p string) string {
		return `<Answer><ErrorCode>0</ErrorCode><Response>` + p + `</Response></Answer>`
	},
	"spec: payload in Response, root Response": func(p string) string {
		return `<Response><ErrorCode>0</ErrorCode><Response>` + p + `</Response></Response>`
	},
	"spec: declaration, spaces, empty Message": func(p string) string {
		return `<?xml version="1.0" encoding="UTF-8"?>` + "\n<Envelope>\n  <ErrorCode>0</ErrorCode>\n  <Message/>\n  <Response>\n    " + p + "\n  </Response>\n</Envelope>\n"
	},
}

// decodeBothPaths decodes body as k through decodeAnswer (the fast path,
// which must apply) and through encoding/xml alone, and requires both to
// give the same answer or the same error.
func decodeBothPaths(t *testing.T, k kind, body string) (*answer, error) {
	t.Helper()
	b := bytes.TrimSpace(trimBOM([]byte(body)))
	var fast, slow xmlRoot
	require.NoError(t, decodeXMLFast(b, &fast), "the fast path reads this shape: %s", body)
	require.NoError(t, newXMLDecoder(bytes.NewReader(b)).Decode(&slow))
	require.Equal(t, slow, fast, "fast and slow roots: %s", body)
	a, err := decodeAnswer("op", k, []byte(body))
	sa, serr := answerFromXML("op", k, &slow, nil)
	require.Equal(t, err, serr, "errors of both paths: %s", body)
	require.True(t, reflect.DeepEqual(a, sa), "answers of both paths: %s", body)
	return a, err
}

func TestXMLAnswersReadInBothShapes(t *testing.T) {
	payment := `<Payment><PaymentID>43149010</PaymentID><Amount>1250.5</Amount><State>COMPLETE</State><LastUpdate>2024-05-01T10:00:05</LastUpdate></Payment>`
	cases := []struct {
		name    string
		k       kind
		payload string
		check   func(t *testing.T, a *answer)
	}{
		{"payment", kindPayment, payment, func(t *testing.T, a *answer) {
			require.NotNil(t, a.payment)
			assert.Equal(t, "43149010", a.payment.PaymentID)
			assert.Equal(t, "1250.5", a.payment.Amount.String())
		}},
		{"refund", kindRefund, `<Refund><RefundID>77</RefundID><PaymentID>43149010</PaymentID><Amount>10.5</Amount><State>EXECUTING</State></Refund>`,
			func(t *testing.T, a *answer) {
				require.NotNil(t, a.refund)
				assert.Equal(t, "77", a.refund.RefundID)
			}},
		{"payment list", kindPaymentList, `<Overflow>true</Overflow><Payments>` + payment + `<Payment><PaymentID>2</PaymentID></Payment></Payments>`,
			func(t *testing.T, a *answer) {
				assert.True(t, a.overflow)
				require.Len(t, a.payments, 2)
				assert.Equal(t, "43149010", a.payments[0].PaymentID)
			}},
		{"empty payment list", kindPaymentList, `<Overflow>false</Overflow><Payments/>`, func(t *testing.T, a *answer) {
			assert.False(t, a.overflow)
			assert.Empty(t, a.payments)
		}},
		{"refund list", kindRefundList, `<Overflow>false</Overflow><Refunds><Refund><RefundID>9</RefundID></Refund></Refunds>`,
			func(t *testing.T, a *answer) {
				require.Len(t, a.refunds, 1)
				assert.Equal(t, "9", a.refunds[0].RefundID)
			}},
		{"documents", kindDocuments, `<Documents><Document><DocumentID>501</DocumentID><FileName>act.pdf</FileName></Document></Documents>`,
			func(t *testing.T, a *answer) {
				require.Len(t, a.documents, 1)
				assert.Equal(t, "act.pdf", a.documents[0].FileName)
			}},
		{"transfers", kindTransfers, `<Transfers><Transfer><RegisterID>301</RegisterID><TransferAmount>12345.67</TransferAmount></Transfer></Transfers>`,
			func(t *testing.T, a *answer) {
				require.Len(t, a.transfers, 1)
				assert.Equal(t, "301", a.transfers[0].RegisterID)
			}},
		{"register", kindRegister, `<Register><RegisterID>301</RegisterID><RegisterNumber>R-1</RegisterNumber><Operations><Operation><OperationID>43149010</OperationID><OperationAmount>1250.5</OperationAmount></Operation></Operations></Register>`,
			func(t *testing.T, a *answer) {
				require.NotNil(t, a.register)
				assert.Equal(t, "R-1", a.register.RegisterNumber)
				require.Len(t, a.register.Operations, 1)
				assert.Equal(t, "43149010", a.register.Operations[0].OperationID)
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := decodeBothPaths(t, c.k, xmlShapes["today's: payload beside ErrorCode"](c.payload))
			require.NoError(t, err)
			c.check(t, want)
			for shape, wrap := range xmlShapes {
				got, err := decodeBothPaths(t, c.k, wrap(c.payload))
				require.NoError(t, err, shape)
				assert.Equal(t, want, got, shape)
			}
		})
	}
}

// An Overflow beside the Response rather than in it still says the list
// was cut short: a lost Overflow would hide rows.
func TestXMLOverflowBesideTheResponse(t *testing.T) {
	a, err := decodeBothPaths(t, kindPaymentList, `<Answer><ErrorCode>0</ErrorCode><Overflow>true</Overflow><Response><Payments><Payment><PaymentID>1</PaymentID></Payment></Payments></Response></Answer>`)
	require.NoError(t, err)
	assert.True(t, a.overflow)
	require.Len(t, a.payments, 1)
}

func TestXMLErrorAnswersReadInBothShapes(t *testing.T) {
	bodies := map[string]string{
		"today's":                          `<Response><ErrorCode>-13</ErrorCode><Message>payment 5 not found</Message></Response>`,
		"spec, empty Response":             `<Answer><ErrorCode>-13</ErrorCode><Message>payment 5 not found</Message><Response/></Answer>`,
		"spec, no Response":                `<Answer><ErrorCode>-13</ErrorCode><Message>payment 5 not found</Message></Answer>`,
		"spec, the error inside Response":  `<Answer><Response><ErrorCode>-13</ErrorCode><Message>payment 5 not found</Message></Response></Answer>`,
		"spec, root 0 and Response's -13":  `<Answer><ErrorCode>0</ErrorCode><Response><ErrorCode>-13</ErrorCode><Message>payment 5 not found</Message></Response></Answer>`,
		"spec, code at root, message in":   `<Answer><ErrorCode>-13</ErrorCode><Response><Message>payment 5 not found</Message></Response></Answer>`,
		"spec, root named Response nested": `<?xml version="1.0"?><Response><ErrorCode>-13</ErrorCode><Response><Message>payment 5 not found</Message></Response></Response>`,
	}
	want := &Error{Code: -13, Message: "payment 5 not found", Operation: "op"}
	for shape, body := range bodies {
		for _, k := range kinds {
			_, err := decodeBothPaths(t, k, body)
			var e *Error
			require.True(t, errors.As(err, &e), "%s, %v: %v", shape, k, err)
			assert.Equal(t, want, e, "%s, %v", shape, k)
		}
		// getDocumentContent's XML error, read the same way.
		err := documentError("op", "application/xml", []byte(body), nil)
		var e *Error
		require.True(t, errors.As(err, &e), "%s, document: %v", shape, err)
		assert.Equal(t, want, e, "%s, document", shape)
	}
}

// ErrorCode 0 with nothing the operation answers is malformed in either
// shape, never an empty payment or register.
func TestXMLEmptyAnswersMalformedInBothShapes(t *testing.T) {
	for _, body := range []string{
		`<Response><ErrorCode>0</ErrorCode></Response>`,
		`<Answer><ErrorCode>0</ErrorCode><Response/></Answer>`,
		`<Answer><ErrorCode>0</ErrorCode><Response><Message/></Response></Answer>`,
	} {
		for _, k := range []kind{kindPayment, kindRefund, kindRegister} {
			_, err := decodeBothPaths(t, k, body)
			assert.ErrorIs(t, err, ErrMalformedResponse, "%s, %v", body, k)
		}
	}
}
