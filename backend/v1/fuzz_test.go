package v1

import (
	"bytes"
	"reflect"
	"testing"
)

// Real answer shapes (the contract's and the sandbox's), as fuzz seeds.
var jsonSeeds = []string{
	`{"ErrorCode":0,"Payment":{"PaymentID":43149010,"SiteInvoiceID":"5561","SiteID":1001,"CurrencyCode":"RUB","Amount":1250.5,"PaymentMethod":"BankCard","PaymentCurrencyCode":"RUB","PaymentAmount":1250.50,"State":"COMPLETE","Purpose":"Order 5561","IsTestPayment":false,"LastUpdateTime":"2024-05-01T10:00:05","UserIdentifier":"411111******1111","UserPhoneNumber":"79001234567"}}`,
	"\xEF\xBB\xBF" + `{"ErrorCode":"0","Payment":{"PaymentID":"43149010","Amount":"1250.5","PaymentAmount":null,"State":"HOLD","IsTestPayment":"true","LastUpdate":"2024-05-01T10:00:05.250Z","ErrorCode":"-17"}}`,
	`{"ErrorCode":0,"Refund":{"RefundID":77,"ExternalID":null,"PaymentID":43149010,"Amount":10.5,"ErrorCode":null,"ErrorDesc":null,"State":"EXECUTING"}}`,
	`{"ErrorCode":0,"Response":{"Overflow":true,"Payments":[{"PaymentID":3,"State":"COMPLETE"},{"PaymentID":"2","State":"CANCELLED","ErrorCode":-10}]}}`,
	`{"ErrorCode":0,"Response":{"Overflow":false,"Refunds":[{"RefundID":9,"ExternalID":"X","PaymentID":3,"Amount":"1.5","State":"SUCCESS","LastUpdate":"2024-05-01T10:00:00"}]}}`,
	`{"ErrorCode":0,"Response":{"Documents":[{"Created":"2024-05-01T03:00:00","Description":"Act","DocumentID":501,"FileName":"act.pdf"}]}}`,
	`{"ErrorCode":0,"Response":{"Transfers":[{"Created":"2024-05-02T00:00:00","CurrencyCode":"RUB","TransferAmount":"12345.67","PaymentOrderID":9001,"RegisterID":301}]}}`,
	`{"ErrorCode":0,"Response":{"Register":{"PeriodFrom":"2024-05-01T00:00:00","PeriodTo":"2024-05-01T23:59:59","RegisterID":301,"RegisterNumber":"R-1","Operations":[{"OperationID":43149010,"SiteAlias":1001,"InvoiceID":"5561","Stamp":"2024-05-01T10:00:05","CurrencyCode":"RUB","OperationAmount":1250.5,"TransferAmount":1.2255e3}]}}}`,
	`{"ErrorCode":-7,"Message":"invalid request signature"}`,
	`{"ErrorCode":-13,"Message":"payment 5 not found \u001b[31m"}`,
	`{"ErrorCode":0}`, `null`, `[]`, `{"ErrorCode":1e999}`, `{"ErrorCode":0,"Payment":{"Amount":-0.00001}}`,
}

var xmlSeeds = []string{
	`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<Response><ErrorCode>0</ErrorCode><Documents><Document><Created>2024-05-01T03:00:00</Created><Description>Act &amp; invoice</Description><DocumentID>501</DocumentID><FileName>act.pdf</FileName></Document></Documents></Response>`,
	`<Response><ErrorCode>0</ErrorCode><Transfers><Transfer><Created>2024-05-02T00:00:00</Created><CurrencyCode>RUB</CurrencyCode><TransferAmount>12345.67</TransferAmount><PaymentOrderID>9001</PaymentOrderID><RegisterID>301</RegisterID></Transfer></Transfers></Response>`,
	"\xEF\xBB\xBF<?xml version='1.0'?>\r\n<Response>\r\n  <ErrorCode>0</ErrorCode>\r\n  <Register><PeriodFrom>2024-05-01T00:00:00</PeriodFrom><PeriodTo>2024-05-01T23:59:59</PeriodTo><RegisterID>301</RegisterID><RegisterNumber>R-1</RegisterNumber>\r\n<Operations><Operation><OperationID>43149010</OperationID><SiteAlias>1001</SiteAlias><InvoiceID>55<!-- c -->61</InvoiceID><Stamp>2024-05-01T10:00:05</Stamp><CurrencyCode>RUB</CurrencyCode><OperationAmount>1250.5</OperationAmount><TransferAmount>1225.49</TransferAmount></Operation><Operation/></Operations></Register></Response>",
	`<Response><ErrorCode>-6</ErrorCode><Message>insufficient rights</Message></Response>`,
	`<Answer a="1"><ErrorCode>0</ErrorCode><Response><Payments><Payment><PaymentID>1</PaymentID><State>HOLD</State><LastUpdate>2024-05-01T10:00:05</LastUpdate></Payment></Payments><Overflow>true</Overflow></Response></Answer>`,
	`<Response><ErrorCode>0</ErrorCode><Refund><RefundID>7</RefundID><ExternalID/><Amount> 10.50 </Amount><State>EXECUTING</State></Refund><Refunds><Refund><RefundID>8</RefundID></Refund></Refunds></Response>`,
	`<Response xmlns="urn:x"><ErrorCode>0</ErrorCode><Payment><PaymentID>1<x>2</x>3</PaymentID><Purpose>caf&#233; ü</Purpose></Payment></Response>`,
	`<Response><ErrorCode>0</ErrorCode><![CDATA[x]]><Register/></Response>`,
	`<Response><ErrorCode>0</ErrorCode></Response>trailing`, `<Response>`, `<`, `<?xml version="1.1"?><Response/>`,
	// Registers, for the register's own fast path: times and amounts on
	// either side of what it reads by hand, ids spread over several
	// fields, repeated and unknown children, empty lists.
	`<Response><ErrorCode>0</ErrorCode><Register><RegisterID>1</RegisterID><Operations><Operation><OperationID> 7 </OperationID><SiteAlias>1001</SiteAlias><InvoiceID> a&amp;b </InvoiceID><Stamp>2024-02-29T23:59:59</Stamp><CurrencyCode> RUB</CurrencyCode><OperationAmount>-0.0001</OperationAmount><TransferAmount>+12345678901234.5</TransferAmount></Operation><Operation><OperationID>8<x/>9</OperationID><SiteAlias>1001</SiteAlias><Stamp> 2023-02-29T00:00:00 </Stamp><OperationAmount>1.50000</OperationAmount><TransferAmount>.5</TransferAmount><Note>n</Note></Operation></Operations><Operations><Operation/><Operation a="1"><OperationID>1</OperationID><OperationID>2</OperationID><Stamp>2024-05-01 10:00:05</Stamp><OperationAmount>1e3</OperationAmount><TransferAmount>123456789012345</TransferAmount></Operation></Operations></Register></Response>`,
	`<Response><ErrorCode>0</ErrorCode><Register><Operations></Operations><Operations/></Register></Response>`,
	"<Response><Register><Operations><Operation><Stamp>2024-12-31T24:00:00</Stamp><InvoiceID>x\r\ny</InvoiceID><CurrencyCode></CurrencyCode></Operation><Operation><Stamp>0000-01-01T00:00:00</Stamp><OperationAmount>5.</OperationAmount></Operation></Operations></Register></Response>",
	// The spec's other reading: a root of any name holding ErrorCode and a
	// Response element with the payload (docs/service.md, v1 XML answers).
	`<Answer><ErrorCode>0</ErrorCode><Response><Payment><PaymentID>43149010</PaymentID><Amount>1250.5</Amount><State>COMPLETE</State></Payment></Response></Answer>`,
	`<Envelope><ErrorCode>0</ErrorCode><Message/><Response><Register><RegisterID>301</RegisterID><Operations><Operation><OperationID>1</OperationID><OperationAmount>1.5</OperationAmount></Operation></Operations></Register></Response></Envelope>`,
	`<Answer><ErrorCode>0</ErrorCode><Overflow>true</Overflow><Response><Refunds><Refund><RefundID>9</RefundID></Refund></Refunds></Response></Answer>`,
	`<Answer><ErrorCode>0</ErrorCode><Response><ErrorCode>-13</ErrorCode><Message>not found</Message></Response></Answer>`,
	`<Response><ErrorCode>0</ErrorCode><Response><Response><Documents><Document><DocumentID>5</DocumentID></Document></Documents></Response></Response></Response>`,
}

// kinds is every payload kind, so each decoder runs on every input.
var kinds = []kind{kindPayment, kindRefund, kindPaymentList, kindRefundList, kindDocuments, kindTransfers, kindRegister}

func FuzzDecodeJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, k := range kinds {
			a, err := decodeAnswer("op", k, body, "secret")
			if err == nil && a == nil {
				t.Fatalf("kind %v: no answer and no error", k)
			}
		}
		_ = documentError("getDocumentContent", "application/json", body, nil)
		_ = documentError("getDocumentContent", "text/csv", body, nil)
	})
}

func FuzzDecodeXML(f *testing.F) {
	for _, s := range xmlSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, k := range kinds {
			a, err := decodeAnswer("op", k, body, "secret")
			if err == nil && a == nil {
				t.Fatalf("kind %v: no answer and no error", k)
			}
		}
		_ = documentError("getDocumentContent", "application/xml", body, nil)

		// The fast path decides nothing on its own: when it succeeds,
		// encoding/xml succeeds too, with the same result.
		b := bytes.TrimSpace(trimBOM(body))
		var fast xmlRoot
		if decodeXMLFast(b, &fast) != nil {
			return
		}
		var slow xmlRoot
		if err := newXMLDecoder(bytes.NewReader(b)).Decode(&slow); err != nil {
			t.Fatalf("the fast path accepted what encoding/xml refuses (%v): %q", err, b)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("fast and slow paths differ on %q:\nfast %+v\nslow %+v", b, fast, slow)
		}
	})
}

// The seeds themselves decode the same on both paths where the fast one applies.
func TestFastXMLAgreesOnSeeds(t *testing.T) {
	applied := 0
	for _, s := range xmlSeeds {
		b := bytes.TrimSpace(trimBOM([]byte(s)))
		var fast, slow xmlRoot
		if decodeXMLFast(b, &fast) != nil {
			continue
		}
		applied++
		if err := newXMLDecoder(bytes.NewReader(b)).Decode(&slow); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q:\nfast %+v\nslow %+v", s, fast, slow)
		}
	}
	if applied < 5 {
		t.Fatalf("the fast path applied to only %d seeds", applied)
	}
	body := bigRegister(1000, true)
	var root xmlRoot
	if err := decodeXMLFast(body, &root); err != nil || root.Register == nil || len(root.Register.Operations) != 1000 {
		t.Fatalf("the fast path does not read a plain register: %v", err)
	}
}
