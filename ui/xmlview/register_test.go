package xmlview

import (
	"fmt"
	"strings"
)

// register writes a transfer register of n operations on one line, the way
// the payment service does.
func register(n int) []byte {
	var b strings.Builder
	b.Grow(n*270 + 400)
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString("<Response><ErrorCode>0</ErrorCode><Register>" +
		"<PeriodFrom>2026-11-01T00:00:00</PeriodFrom><PeriodTo>2026-11-01T23:59:59</PeriodTo>" +
		"<RegisterID>123</RegisterID><RegisterNumber>R-1001-20261101</RegisterNumber><Operations>")
	for k := range n {
		fmt.Fprintf(&b, "<Operation><OperationID>%d</OperationID><SiteAlias>1001</SiteAlias>"+
			"<InvoiceID>%d</InvoiceID><Stamp>2026-11-01T%02d:%02d:%02d</Stamp><CurrencyCode>RUB</CurrencyCode>"+
			"<OperationAmount>%d.%02d</OperationAmount><TransferAmount>%d.%02d</TransferAmount></Operation>",
			43149010+k, 5561+k, k/3600%24, k/60%60, k%60, 1000+k%9000, k%100, 980+k%9000, (k*7)%100)
	}
	b.WriteString("</Operations></Register></Response>")
	return []byte(b.String())
}
