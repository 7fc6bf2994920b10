package sandbox

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func BenchmarkSeed100k(b *testing.B) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	for b.Loop() {
		NewStore(Options{Payments: DefaultPayments, Now: func() time.Time { return now }})
	}
}

// BenchmarkServePage asks for one page of 100 payments over HTTPS.
func BenchmarkServePage(b *testing.B) {
	srv := start(b, Options{Payments: DefaultPayments})
	c := newClient(b, srv)
	path := "/api/v2/payments?merchantId=1001&start=2000-01-01&end=2100-01-01"
	req, _ := http.NewRequest("GET", srv.BaseURL()+path, nil)
	req.Header.Set("Authorization", "Bearer "+srv.Store().V2Token())
	for b.Loop() {
		resp, err := c.hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatal(resp.Status)
		}
	}
}

// BenchmarkServePageHandler is the same page through the handler alone, deep
// in the list (a cursor in the middle), without TLS and sockets.
func BenchmarkServePageHandler(b *testing.B) {
	srv := start(b, Options{Payments: DefaultPayments})
	h := srv.srv.Handler
	st := srv.Store()
	q := ListQuery{MerchantID: "1001", Start: time.Unix(0, 0), End: time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)}
	for range 200 {
		page, _ := st.ListPayments(q)
		q.Cursor = page.Cursor
	}
	path := "/api/v2/payments?merchantId=1001&start=1970-01-01&end=2100-01-01&cursor=" + q.Cursor
	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set("Authorization", "Bearer "+st.V2Token())
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code, rec.Body.String())
		}
	}
}
