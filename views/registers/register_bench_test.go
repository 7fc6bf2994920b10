package registers

import (
	"crypto/x509"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
)

// The register viewer's budget: a register of 50,000
// operations parsed and its first frame drawn within 150 ms, a scroll key
// within 1 ms, a search within 20 ms. Each figure is measured beside a
// baseline in the same run: encoding/xml decoding the same bytes.
//
//	go test ./views -run xxx -bench Register -benchtime 10x

const benchOperations = 50_000

// registerXML is a register of n operations as the service writes it: one
// line, every tenth operation a refund.
func registerXML(n int) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<Response><ErrorCode>0</ErrorCode><Register><PeriodFrom>2026-11-01T00:00:00</PeriodFrom>` +
		`<PeriodTo>2026-11-01T23:59:59</PeriodTo><RegisterID>9001</RegisterID><RegisterNumber>R-1001-20261101</RegisterNumber><Operations>`)
	for i := range n {
		amount, transfer := "1250.50", "1225.49"
		if i%10 == 9 {
			amount, transfer = "-300.00", "-300.00"
		}
		fmt.Fprintf(&b, "<Operation><OperationID>%d</OperationID><SiteAlias>1001</SiteAlias><InvoiceID>ORD-%d</InvoiceID>"+
			"<Stamp>2026-11-01T%02d:%02d:%02d</Stamp><CurrencyCode>RUB</CurrencyCode><OperationAmount>%s</OperationAmount>"+
			"<TransferAmount>%s</TransferAmount></Operation>", 43000000+i, 5000+i, i/3600%24, i/60%60, i%60, amount, transfer)
	}
	b.WriteString(`</Operations></Register></Response>`)
	return []byte(b.String())
}

// v1Server answers every v1 request with body, as XML: enough for a
// register (the client signs, this server does not check).
func v1Server(tb testing.TB, body []byte) backend.Backend {
	tb.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/xml; charset=utf-8")
		_, _ = w.Write(body)
	}))
	tb.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	b, err := backend.Open(backend.Config{BaseURL: srv.URL, RootCAs: pool, V1Login: "accountant", V1Password: "secret",
		MerchantIDs: []string{"1001"}})
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

type benchOperation struct {
	OperationID, SiteAlias, InvoiceID, Stamp, CurrencyCode, OperationAmount, TransferAmount string
}

type benchRegister struct {
	XMLName   xml.Name `xml:"Response"`
	ErrorCode int
	Register  struct {
		RegisterID, RegisterNumber string
		Operations                 []benchOperation `xml:"Operations>Operation"`
	}
}

func BenchmarkRegister(b *testing.B) {
	body := registerXML(benchOperations)
	src := v1Server(b, body)
	tr := backend.Transfer{RegisterID: "9001", Created: time.Date(2026, 11, 2, 6, 0, 0, 0, time.UTC),
		Amount: money.Amount{Value: money.MustParse("1"), Currency: "RUB"}}
	th := ui.NewTheme(true, false)
	km := keys.Default()

	b.Run("baseline-encoding-xml", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			var r benchRegister
			if err := xml.Unmarshal(body, &r); err != nil || len(r.Register.Operations) != benchOperations {
				b.Fatal(err)
			}
		}
	})

	// open: the read over HTTPS, the v1 decode, the layout of the XML, the
	// totals, the operations table and the first frame.
	open := func(b testing.TB) *registerPane {
		p := newRegisterPane(src, km, th)
		p.setSize(200, 50)
		msg := p.show(tr, false)()
		if _, ok := p.update(msg); !ok || p.data == nil || p.data.err != nil {
			b.Fatalf("register not read: %+v", p.data)
		}
		if view := strings.Join(p.lines(), "\n"); !strings.Contains(view, "43000000") {
			b.Fatal("first frame without the first operation")
		}
		return p
	}
	b.Run("open-first-frame", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			open(b)
		}
	})

	p := open(b)
	down := viewtest.KeyPress("down")
	b.Run("scroll-operations", func(b *testing.B) {
		for b.Loop() {
			p.key(down, p.available)
			_ = p.lines()
		}
	})
	p.key(viewtest.KeyPress("w"), p.available)
	_ = p.lines()
	b.Run("scroll-xml", func(b *testing.B) {
		for b.Loop() {
			p.key(down, p.available)
			_ = p.lines()
		}
	})
	for _, q := range []string{"ORD-54999", "operation"} {
		b.Run("search-"+q, func(b *testing.B) {
			for b.Loop() {
				p.runSearch(q)
				if p.matches == nil {
					b.Fatal("no match")
				}
			}
		})
	}
}
