package v2_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
	v2 "paydash/backend/v2"
)

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

const paymentAnswer = `{"id":"p1","created":"2024-05-01T10:00:00Z","status":"Pending","merchantId":"m1",
	"amount":{"value":10.5,"currency":"RUB"}}`

// TestRequestShapes checks, for every endpoint, what goes on the wire:
// method, escaped path, query, JSON body members and headers.
func TestRequestShapes(t *testing.T) {
	amount := &money.Amount{Value: money.MustParse("10.5"), Currency: "RUB"}
	msk := time.FixedZone("MSK", 3*3600)
	start := time.Date(2024, 5, 1, 3, 0, 0, 0, msk)              // 00:00 UTC
	end := time.Date(2024, 5, 2, 0, 0, 0, 500_000_000, time.UTC) // fractional seconds kept
	expires := time.Date(2024, 5, 3, 15, 30, 0, 0, msk)          // sent as 12:30 UTC
	cases := []struct {
		name   string
		answer string
		call   func(context.Context, *v2.Client) (*v2.Response, error)
		method string
		path   string
		query  url.Values
		body   string // "" means no body at all
		keyed  bool   // a creating POST: Idempotency-Key expected
	}{
		{
			name:   "invoices create",
			answer: `{"paymentId":"p1","url":"https://pay.example/p1"}`,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				out, resp, err := c.Invoices.Create(ctx, &v2.InvoiceRequest{
					MerchantID: "m1", DualMode: true,
					Tokenization:  &v2.TokenizationDetails{Type: v2.TokenTypeRecurring, Purpose: "gym", CallbackURL: "https://m/tok"},
					Invoice:       &v2.Invoice{Description: "Order 5561", OrderNo: "5561", Expires: expires, Params: v2.Params{"desk": "3"}},
					Amount:        amount,
					PaymentMethod: v2.PaymentMethodBankCard,
					Protocol:      &v2.Protocol{ReturnURL: "https://m/ret", CallbackURL: "https://m/cb"},
					Customer:      &v2.Customer{Email: "a@b.c", Phone: "79001234567"},
				}, nil)
				if err == nil {
					assert.Equal(t, &v2.InvoiceCreated{PaymentID: "p1", URL: "https://pay.example/p1"}, out)
				}
				return resp, err
			},
			method: http.MethodPost, path: "/api/v2/invoices", keyed: true,
			body: `{"merchantId":"m1","dualMode":true,
				"tokenization":{"type":"recurring","purpose":"gym","callbackUrl":"https://m/tok"},
				"invoice":{"description":"Order 5561","orderNo":"5561","expires":"2024-05-03T12:30:00Z","params":{"desk":"3"}},
				"amount":{"value":10.5,"currency":"RUB"},"paymentMethod":"bankcard",
				"protocol":{"returnUrl":"https://m/ret","callbackUrl":"https://m/cb"},
				"customer":{"email":"a@b.c","phone":"79001234567"}}`,
		},
		{
			name:   "payments create",
			answer: paymentAnswer,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				p, resp, err := c.Payments.Create(ctx, &v2.PaymentRequest{
					MerchantID: "m1", TestMode: true, Amount: amount,
					PaymentData: &v2.PaymentData{
						PaymentMethod: "BankCard",
						Card:          &v2.Card{PAN: "4111111111111111", Expiry: "12/29", CVC: "123"},
						Token:         &v2.TokenRef{ID: "t1"},
						StickerID:     "s1",
					},
					Protocol: &v2.Protocol{ReturnURL: "https://m/r", CallbackURL: "https://m/c", ThreeDSCompleteURL: "https://m/3ds"},
					Customer: &v2.Customer{IP: "203.0.113.9"},
					Device:   &v2.Device{Language: "ru", AcceptHeader: "*/*", UserAgent: "UA", ColorDepth: "24", ScreenHeight: "800", ScreenWidth: "1280", UTCOffsetMinutes: "180"},
				}, nil)
				if err == nil {
					assert.Equal(t, "p1", p.ID)
				}
				return resp, err
			},
			method: http.MethodPost, path: "/api/v2/payments", keyed: true,
			body: `{"merchantId":"m1","testMode":true,"amount":{"value":10.5,"currency":"RUB"},
				"paymentData":{"paymentMethod":"BankCard","card":{"pan":"4111111111111111","expiry":"12/29","cvc":"123"},
					"token":{"id":"t1"},"stickerId":"s1"},
				"protocol":{"returnUrl":"https://m/r","callbackUrl":"https://m/c","threeDSCompleteUrl":"https://m/3ds"},
				"customer":{"ip":"203.0.113.9"},
				"device":{"language":"ru","acceptHeader":"*/*","userAgent":"UA","colorDepth":"24","screenHeight":"800","screenWidth":"1280","utcOffsetMinutes":"180"}}`,
		},
		{
			name:   "payments complete escapes the id",
			answer: paymentAnswer,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				_, resp, err := c.Payments.Complete(ctx, "a/b?c", &v2.CompleteRequest{Code: "1", ThreeDSCompInd: "Y", CRes: "cr", PARes: "pa"})
				return resp, err
			},
			method: http.MethodPut, path: "/api/v2/payments/a%2Fb%3Fc/complete",
			body: `{"code":"1","threeDSCompInd":"Y","cres":"cr","PARes":"pa"}`,
		},
		{
			name: "payments confirm with amount",
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				a := money.Amount{Value: money.MustParse("0.1") + money.MustParse("0.2"), Currency: "RUB"}
				return c.Payments.Confirm(ctx, "p1", &a)
			},
			method: http.MethodPut, path: "/api/v2/payments/p1/confirm",
			body: `{"amount":{"value":0.3,"currency":"RUB"}}`,
		},
		{
			name: "payments confirm without amount sends no body",
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				return c.Payments.Confirm(ctx, "p1", nil)
			},
			method: http.MethodPut, path: "/api/v2/payments/p1/confirm",
		},
		{
			name: "payments cancel",
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				return c.Payments.Cancel(ctx, "p1")
			},
			method: http.MethodPut, path: "/api/v2/payments/p1/cancel",
		},
		{
			name:   "payments get",
			answer: paymentAnswer,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				_, resp, err := c.Payments.Get(ctx, "p1")
				return resp, err
			},
			method: http.MethodGet, path: "/api/v2/payments/p1",
		},
		{
			name:   "payments list",
			answer: `{"items":[],"cursor":"next"}`,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				l, resp, err := c.Payments.List(ctx, v2.ListParams{MerchantID: "m1", Start: start, End: end, Cursor: "abc"})
				if err == nil {
					assert.Equal(t, "next", l.Cursor)
					assert.Equal(t, "next", resp.Cursor)
				}
				return resp, err
			},
			method: http.MethodGet, path: "/api/v2/payments",
			query: url.Values{"merchantId": {"m1"}, "start": {"2024-05-01T00:00:00Z"}, "end": {"2024-05-02T00:00:00.5Z"}, "cursor": {"abc"}},
		},
		{
			name:   "refunds create",
			answer: `{"id":"r1","created":"2024-05-01T10:00:00Z","paymentId":"p1","amount":{"value":10.5,"currency":"RUB"},"status":"Pending"}`,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				r, resp, err := c.Refunds.Create(ctx, &v2.RefundRequest{PaymentID: "p1", Amount: amount}, &v2.CreateOptions{IdempotencyKey: "caller-key-1"})
				if err == nil {
					assert.Equal(t, v2.RefundStatusPending, r.Status)
					assert.Equal(t, "caller-key-1", resp.IdempotencyKey)
				}
				return resp, err
			},
			method: http.MethodPost, path: "/api/v2/refunds", keyed: true,
			body: `{"paymentId":"p1","amount":{"value":10.5,"currency":"RUB"}}`,
		},
		{
			name:   "refunds get",
			answer: `{"id":"r1"}`,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				_, resp, err := c.Refunds.Get(ctx, "r1")
				return resp, err
			},
			method: http.MethodGet, path: "/api/v2/refunds/r1",
		},
		{
			name:   "refunds list",
			answer: `{"items":[]}`,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				_, resp, err := c.Refunds.List(ctx, v2.ListParams{MerchantID: "m1", Start: start, End: end})
				return resp, err
			},
			method: http.MethodGet, path: "/api/v2/refunds",
			query: url.Values{"merchantId": {"m1"}, "start": {"2024-05-01T00:00:00Z"}, "end": {"2024-05-02T00:00:00.5Z"}},
		},
		{
			name:   "tokenization create",
			answer: `{"tokenId":"t1","url":"https://pay.example/tok/t1"}`,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				out, resp, err := c.Tokenization.Create(ctx, &v2.TokenizationRequest{
					MerchantID: "m1", Type: v2.TokenTypeRecurring, Purpose: "gym", PaymentMethod: v2.PaymentMethodSBP,
					CallbackURL: "https://m/cb", ReturnURL: "https://m/ret", Customer: &v2.Customer{Account: "acc1", Email: "a@b.c"},
				}, nil)
				if err == nil {
					assert.Equal(t, &v2.TokenizationCreated{TokenID: "t1", URL: "https://pay.example/tok/t1"}, out)
				}
				return resp, err
			},
			method: http.MethodPost, path: "/api/v2/tokenization", keyed: true,
			body: `{"merchantId":"m1","type":"recurring","purpose":"gym","paymentMethod":"sbp",
				"callbackUrl":"https://m/cb","returnUrl":"https://m/ret","customer":{"account":"acc1","email":"a@b.c"}}`,
		},
		{
			name:   "paymenttokens create",
			answer: `{"id":"t1","status":"Created"}`,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				tok, resp, err := c.PaymentTokens.Create(ctx, &v2.PaymentTokenRequest{
					MerchantID: "m1", TestMode: true, Type: v2.TokenTypeCOF, Purpose: "p",
					PaymentData: &v2.PaymentData{PaymentMethod: "bankcard", Card: &v2.Card{PAN: "4111", Expiry: "1229", CVC: "1"}},
					Protocol:    &v2.Protocol{ThreeDSCompleteURL: "https://m/3ds"},
					Customer:    &v2.Customer{Account: "acc1"},
					Device:      &v2.Device{Language: "en"},
				}, nil)
				if err == nil {
					assert.Equal(t, v2.TokenStatusCreated, tok.Status)
				}
				return resp, err
			},
			method: http.MethodPost, path: "/api/v2/paymenttokens", keyed: true,
			body: `{"merchantId":"m1","testMode":true,"type":"cof","purpose":"p",
				"paymentData":{"paymentMethod":"bankcard","card":{"pan":"4111","expiry":"1229","cvc":"1"}},
				"protocol":{"threeDSCompleteUrl":"https://m/3ds"},"customer":{"account":"acc1"},"device":{"language":"en"}}`,
		},
		{
			name:   "paymenttokens complete",
			answer: `{"id":"t1","status":"Active"}`,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				_, resp, err := c.PaymentTokens.Complete(ctx, "t1", &v2.CompleteRequest{CRes: "cr"})
				return resp, err
			},
			method: http.MethodPut, path: "/api/v2/paymenttokens/t1/complete", body: `{"cres":"cr"}`,
		},
		{
			name:   "paymenttokens get",
			answer: `{"id":"t1","status":"Active"}`,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				_, resp, err := c.PaymentTokens.Get(ctx, "t1")
				return resp, err
			},
			method: http.MethodGet, path: "/api/v2/paymenttokens/t1",
		},
		{
			name: "paymenttokens revoke",
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				return c.PaymentTokens.Revoke(ctx, "t1")
			},
			method: http.MethodPut, path: "/api/v2/paymenttokens/t1/revoke",
		},
		{
			name:   "stickers create",
			answer: `{"id":"s1","stickerType":"Sbp","status":"Active","amount":{"value":10.5,"currency":"RUB"}}`,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				_, resp, err := c.Stickers.Create(ctx, &v2.StickerRequest{
					MerchantID: "m1", StickerType: v2.StickerTypeSbp, Cashlink: true, Description: "Desk 3",
					ProductCode: "P1", PaymentPurpose: "coffee", Amount: amount, CallbackURL: "https://m/cb",
				}, nil)
				return resp, err
			},
			method: http.MethodPost, path: "/api/v2/stickers", keyed: true,
			body: `{"merchantId":"m1","stickerType":"Sbp","cashlink":true,"description":"Desk 3","productCode":"P1",
				"paymentPurpose":"coffee","amount":{"value":10.5,"currency":"RUB"},"callbackUrl":"https://m/cb"}`,
		},
		{
			name: "stickers update sends false explicitly",
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				return c.Stickers.Update(ctx, "s 1", false)
			},
			method: http.MethodPut, path: "/api/v2/stickers/s%201", body: `{"active":false}`,
		},
		{
			name:   "stickers get",
			answer: `{"id":"s1"}`,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				_, resp, err := c.Stickers.Get(ctx, "s1")
				return resp, err
			},
			method: http.MethodGet, path: "/api/v2/stickers/s1",
		},
		{
			name:   "stickers list",
			answer: `{"items":[{"id":"s1"}]}`,
			call: func(ctx context.Context, c *v2.Client) (*v2.Response, error) {
				l, resp, err := c.Stickers.List(ctx, v2.StickerListParams{MerchantID: "m1", Cursor: "c2"})
				if err == nil {
					assert.Len(t, l.Items, 1)
					assert.Empty(t, resp.Cursor)
				}
				return resp, err
			},
			method: http.MethodGet, path: "/api/v2/stickers",
			query: url.Values{"merchantId": {"m1"}, "cursor": {"c2"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, reply(http.StatusOK, tc.answer))
			c := newClient(t, s)

			resp, err := tc.call(context.Background(), c)
			require.NoError(t, err)
			require.NotNil(t, resp)
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, tc.answer, string(resp.Body), "raw body kept")

			reqs := s.requests()
			require.Len(t, reqs, 1)
			got := reqs[0]
			assert.Equal(t, tc.method, got.Method)
			assert.Equal(t, tc.path, got.Path)
			if tc.query == nil {
				assert.Empty(t, got.Query)
			} else {
				assert.Equal(t, tc.query, got.Query)
			}
			assert.Equal(t, "Bearer "+testToken, got.Header.Get("Authorization"))
			assert.Equal(t, "application/json", got.Header.Get("Accept"))
			if tc.body == "" {
				assert.Empty(t, got.Body)
				assert.Empty(t, got.Header.Get("Content-Type"))
			} else {
				assert.JSONEq(t, tc.body, string(got.Body))
				assert.Equal(t, "application/json", got.Header.Get("Content-Type"))
			}
			key := got.Header.Get("Idempotency-Key")
			if tc.keyed {
				require.NotEmpty(t, key)
				assert.Equal(t, key, resp.IdempotencyKey)
				if key != "caller-key-1" {
					assert.Regexp(t, uuidV4, key)
				}
			} else {
				assert.Empty(t, key)
				assert.Empty(t, resp.IdempotencyKey)
			}
		})
	}
}

func TestGeneratedIdempotencyKeysDiffer(t *testing.T) {
	s := newServer(t, reply(http.StatusOK, `{"id":"r1"}`))
	c := newClient(t, s)
	req := &v2.RefundRequest{PaymentID: "p1"}
	_, r1, err := c.Refunds.Create(context.Background(), req, nil)
	require.NoError(t, err)
	_, r2, err := c.Refunds.Create(context.Background(), req, &v2.CreateOptions{})
	require.NoError(t, err)
	assert.Regexp(t, uuidV4, r1.IdempotencyKey)
	assert.Regexp(t, uuidV4, r2.IdempotencyKey)
	assert.NotEqual(t, r1.IdempotencyKey, r2.IdempotencyKey)
}

func TestBadIdsAndRequestsAreRefusedBeforeSending(t *testing.T) {
	s := newServer(t, reply(http.StatusOK, `{}`))
	c := newClient(t, s)
	ctx := context.Background()

	_, _, err := c.Payments.Get(ctx, "")
	assert.Error(t, err)
	_, err = c.Payments.Cancel(ctx, "..")
	assert.Error(t, err)
	_, err = c.Stickers.Update(ctx, "", true)
	assert.Error(t, err)
	_, _, err = c.Refunds.Create(ctx, nil, nil)
	assert.Error(t, err)
	_, _, err = c.Refunds.Create(ctx, &v2.RefundRequest{}, &v2.CreateOptions{IdempotencyKey: "bad\r\nX-Evil: 1"})
	assert.Error(t, err)
	assert.Empty(t, s.requests(), "nothing reaches the server")
}
