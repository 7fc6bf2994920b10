package v1

import (
	"bytes"
	"strings"
	"testing"
)

func bigRegister(n int, xml bool) []byte {
	var b strings.Builder
	if xml {
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<Response><ErrorCode>0</ErrorCode><Register><PeriodFrom>2024-05-01T00:00:00</PeriodFrom><PeriodTo>2024-05-01T23:59:59</PeriodTo><RegisterID>1</RegisterID><RegisterNumber>R-1</RegisterNumber><Operations>`)
		for range n {
			b.WriteString("\n    <Operation><OperationID>43149010</OperationID><SiteAlias>1001</SiteAlias><InvoiceID>5561</InvoiceID><Stamp>2024-05-01T10:00:05</Stamp><CurrencyCode>RUB</CurrencyCode><OperationAmount>1250.50</OperationAmount><TransferAmount>1225.49</TransferAmount></Operation>")
		}
		b.WriteString(`</Operations></Register></Response>`)
		return []byte(b.String())
	}
	b.WriteString(`{"ErrorCode":0,"Response":{"Register":{"PeriodFrom":"2024-05-01T00:00:00","PeriodTo":"2024-05-01T23:59:59","RegisterID":1,"RegisterNumber":"R-1","Operations":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"OperationID":43149010,"SiteAlias":1001,"InvoiceID":"5561","Stamp":"2024-05-01T10:00:05","CurrencyCode":"RUB","OperationAmount":1250.50,"TransferAmount":1225.49}`)
	}
	b.WriteString(`]}}}`)
	return []byte(b.String())
}

func BenchmarkDecodeRegister(b *testing.B) {
	for _, form := range []string{"xml", "json"} {
		body := bigRegister(50000, form == "xml")
		if form == "xml" {
			// The same bytes through encoding/xml alone, the fallback when
			// the fast path gives up: the baseline the fast path is measured
			// against, in the same run.
			b.Run("xml-encoding", func(b *testing.B) {
				trimmed := bytes.TrimSpace(trimBOM(body))
				b.SetBytes(int64(len(body)))
				for b.Loop() {
					var root xmlRoot
					err := newXMLDecoder(bytes.NewReader(trimmed)).Decode(&root)
					if err != nil || root.Register == nil || len(root.Register.Operations) != 50000 {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(form, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				a, err := decodeAnswer("getTransferRegister", kindRegister, body)
				if err != nil || len(a.register.Operations) != 50000 {
					b.Fatal(err)
				}
			}
		})
	}
}
