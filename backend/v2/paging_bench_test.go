package v2_test

// What paging costs the client alone: real sandbox pages, recorded once,
// answered from memory (no TLS, no sandbox), next to a plain encoding/json
// decode of the same bytes, the floor the client is held to.

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"paydash/backend/sandbox"
	v2 "paydash/backend/v2"
)

// recordedPayments is how many sandbox payments the recording pages
// through, in pages of 100 per merchant.
const recordedPayments = 5000

// recording is one list's pages as the sandbox answered them, by request
// path and query.
type recording struct {
	base   string
	params []v2.ListParams   // one per merchant
	order  []string          // the requests, in the order they were made
	bodies map[string][]byte // by request path and query
	items  int
}

var (
	recordOnce sync.Once
	recorded   *recording
	recordErr  error
)

// recordPages pages one merchant's payments through the client once,
// keeping every answer's body.
func recordPages(b *testing.B) *recording {
	b.Helper()
	recordOnce.Do(func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		now := time.Now()
		srv, err := sandbox.Start(ctx, sandbox.Options{Seed: 11, Payments: recordedPayments, Now: func() time.Time { return now }})
		if err != nil {
			recordErr = err
			return
		}
		defer func() { _ = srv.Close() }()
		if recordErr = srv.Store().WaitSeeded(ctx); recordErr != nil {
			return
		}
		rec := &recording{base: srv.BaseURL(), bodies: map[string][]byte{}}
		next := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: srv.CertPool(), MinVersion: tls.VersionTLS12}}
		defer next.CloseIdleConnections()
		hc := &http.Client{Transport: &recorder{rec: rec, next: next}}
		api, err := v2.NewClient(srv.BaseURL(), srv.Info().V2Token, v2.WithHTTPClient(hc))
		if err != nil {
			recordErr = err
			return
		}
		for _, m := range srv.Info().MerchantIDs {
			rec.params = append(rec.params, v2.ListParams{MerchantID: m, Start: now.AddDate(0, 0, -91), End: now.Add(time.Hour)})
		}
		if rec.items, recordErr = pageAll(ctx, api, rec.params); recordErr == nil && rec.items != recordedPayments {
			recordErr = fmt.Errorf("recorded %d payments, want %d", rec.items, recordedPayments)
		}
		recorded = rec
	})
	require.NoError(b, recordErr)
	return recorded
}

// pageAll pages every list of params through api, counting the payments.
func pageAll(ctx context.Context, api *v2.Client, params []v2.ListParams) (int, error) {
	n := 0
	for _, p := range params {
		for _, err := range api.Payments.All(ctx, p) {
			if err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// recorder keeps the body of every answer that passes through it.
type recorder struct {
	rec  *recording
	next http.RoundTripper
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	key := req.URL.RequestURI()
	r.rec.order = append(r.rec.order, key)
	r.rec.bodies[key] = body
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// replayer answers the recorded requests from memory, as a service would:
// status 200, JSON, with a Content-Length.
type replayer struct{ rec *recording }

var jsonHeader = http.Header{"Content-Type": {"application/json"}}

func (r replayer) RoundTrip(req *http.Request) (*http.Response, error) {
	body, ok := r.rec.bodies[req.URL.RequestURI()]
	if !ok {
		return &http.Response{StatusCode: http.StatusNotFound, Header: http.Header{}, Body: http.NoBody, Request: req}, nil
	}
	return &http.Response{
		StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: jsonHeader, ContentLength: int64(len(body)), Body: io.NopCloser(bytes.NewReader(body)), Request: req,
	}, nil
}

// perPayment reports the run's time and allocated bytes per payment;
// payments is how many one iteration reads.
func perPayment(b *testing.B, payments int, run func()) {
	b.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	n := 0
	for b.Loop() {
		run()
		n++
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	total := float64(n * payments)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/total, "ns/payment")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/total, "B/payment")
}

// BenchmarkClientFromMemory pages the recorded payments through the
// client, its HTTP stack answered from memory: the client's own cost.
func BenchmarkClientFromMemory(b *testing.B) {
	rec := recordPages(b)
	api, err := v2.NewClient(rec.base, "token", v2.WithHTTPClient(&http.Client{Transport: replayer{rec}}))
	require.NoError(b, err)
	ctx := context.Background()
	perPayment(b, rec.items, func() {
		n, err := pageAll(ctx, api, rec.params)
		if err != nil {
			b.Fatal(err)
		}
		if n != rec.items {
			b.Fatalf("paged %d payments, want %d", n, rec.items)
		}
	})
}

// plainPage mirrors a payment list page's wire shape in plain Go types.
type plainPage struct {
	Items []struct {
		ID         string    `json:"id"`
		Created    time.Time `json:"created"`
		Completed  time.Time `json:"completed"`
		Status     string    `json:"status"`
		ResultCode string    `json:"resultCode"`
		MerchantID string    `json:"merchantId"`
		Invoice    struct {
			Description string    `json:"description"`
			OrderNo     string    `json:"orderNo"`
			Expires     time.Time `json:"expires"`
		} `json:"invoice"`
		Amount struct {
			Value    json.Number `json:"value"`
			Currency string      `json:"currency"`
		} `json:"amount"`
		PaymentData struct {
			PaymentMethod          string `json:"paymentMethod"`
			PaymentInstrumentTitle string `json:"paymentInstrumentTitle"`
		} `json:"paymentData"`
	} `json:"items"`
	Cursor string `json:"cursor"`
}

// BenchmarkBaselinePlainDecode is json.Unmarshal of the recorded pages'
// bodies into plainPage: the floor BenchmarkClientFromMemory is held to
// (at most twice its time per payment).
func BenchmarkBaselinePlainDecode(b *testing.B) {
	rec := recordPages(b)
	perPayment(b, rec.items, func() { plainDecode(b, rec) })
}

// plainDecode decodes every recorded page into a plainPage.
func plainDecode(b *testing.B, rec *recording) {
	n := 0
	for _, key := range rec.order {
		var p plainPage
		if err := json.Unmarshal(rec.bodies[key], &p); err != nil {
			b.Fatal(err)
		}
		n += len(p.Items)
	}
	if n != rec.items {
		b.Fatalf("decoded %d payments, want %d", n, rec.items)
	}
}

// BenchmarkClientOverPlainDecode alternates the two above within each
// iteration and reports the client's time over the plain decode's, a
// ratio that a machine busy with other work disturbs far less than the
// two figures taken apart.
func BenchmarkClientOverPlainDecode(b *testing.B) {
	rec := recordPages(b)
	api, err := v2.NewClient(rec.base, "token", v2.WithHTTPClient(&http.Client{Transport: replayer{rec}}))
	require.NoError(b, err)
	ctx := context.Background()
	var client, plain time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := pageAll(ctx, api, rec.params); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		plainDecode(b, rec)
		client, plain = client+t1.Sub(t0), plain+time.Since(t1)
	}
	b.ReportMetric(float64(client)/float64(plain), "client/plain")
}
