package v1_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/internal/testkit"
	v1 "paydash/backend/v1"
)

// The service's documented table of codes, word for word, and which helper
// claims each code.
var specCodes = []struct {
	code    int
	meaning string
	helper  string // the Is* helper that reports it, "" for none
}{
	{-1, "Unknown error; system failure", ""},
	{-2, "Network error; system failure", ""},
	{-6, "No access: incorrect login or insufficient rights", "IsNoAccess"},
	{-7, "Invalid request signature", "IsBadSignature"},
	{-8, "The merchant declined the payment at the pre-request stage", "IsRefused"},
	{-9, "The account expired", "IsRefused"},
	{-10, "The payment system declined the payment", "IsRefused"},
	{-13, "Payment cannot be found by the account number", "IsNotFound"},
	{-14, "Repeat of the request with the same nonce", "IsNonceReused"},
	{-15, "The payment expired or was cancelled", "IsRefused"},
	{-17, "The user refused to pay", "IsRefused"},
	{-18, "Incorrect amount value (for refunds, the refund amount)", "IsBadAmount"},
	{-19, "The user does not have enough funds", "IsRefused"},
	{-22, "Cannot log into the payment system", ""},
	{-25, "3D Secure authorization failed", "IsRefused"},
	{-26, "Invalid card number", "IsRefused"},
	{-27, "Card expired", "IsRefused"},
	{-28, "Card blocked", "IsRefused"},
	{-29, "Payment amount limit exceeded", "IsRefused"},
	{-30, "Payment quantity limit exceeded", "IsRefused"},
	{-31, "Inadmissible card operation", "IsRefused"},
}

var helpers = map[string]func(error) bool{
	"IsNoAccess": v1.IsNoAccess, "IsBadSignature": v1.IsBadSignature, "IsNonceReused": v1.IsNonceReused,
	"IsNotFound": v1.IsNotFound, "IsBadAmount": v1.IsBadAmount, "IsRefused": v1.IsRefused,
}

func TestEveryErrorCodeIsMapped(t *testing.T) {
	for _, sc := range specCodes {
		t.Run(strconv.Itoa(sc.code), func(t *testing.T) {
			assert.Equal(t, sc.meaning, v1.Meaning(sc.code))
			body := fmt.Sprintf(`{"ErrorCode":%d,"Message":"reason \u001b]0;title\u0007 %d\u202e"}`, sc.code, sc.code)
			_, _, err := decodeWith(t, body, getPayment)
			var e *v1.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, sc.code, e.Code)
			assert.Equal(t, "getPayment", e.Operation)
			assert.Equal(t, fmt.Sprintf("reason %d", sc.code), e.Message, "escape sequences, control and bidi characters removed")
			assert.Equal(t, fmt.Sprintf("v1: getPayment: error %d (%s): reason %d", sc.code, sc.meaning, sc.code), err.Error())
			for name, is := range helpers {
				assert.Equal(t, name == sc.helper, is(err), "%s(%d)", name, sc.code)
				assert.Equal(t, name == sc.helper, is(fmt.Errorf("wrapped: %w", err)), "%s sees through wrapping", name)
			}
			assert.Equal(t, sc.code == -1 || sc.code == -2, v1.IsSystemFailure(err))
			assert.False(t, v1.IsServerFailure(err))
		})
	}
	assert.Equal(t, "Success", v1.Meaning(0))
	assert.Equal(t, "", v1.Meaning(-99))
	_, _, err := decodeWith(t, `{"ErrorCode":-99,"Message":"new"}`, getPayment)
	assert.EqualError(t, err, "v1: getPayment: error -99 (a code the spec does not list): new")
	for name, is := range helpers {
		assert.False(t, is(err), name)
		assert.False(t, is(nil), name)
		assert.False(t, is(errors.New("x")), name)
	}
}

// Any status other than 200 is a server failure, whatever the body says.
func TestNon200IsAServerFailure(t *testing.T) {
	for _, tc := range []struct {
		status  int
		body    string
		excerpt string
	}{
		{500, `<html><body><h1>Internal Server Error</h1>` + "\x1b[31m" + `</body></html>`, "Internal Server Error"},
		{502, "Bad gateway", "Bad gateway"},
		{404, `{"ErrorCode":-13,"Message":"not found"}`, `{"ErrorCode":-13,"Message":"not found"}`},
		{201, `{"ErrorCode":0,"Payment":{"PaymentID":1}}`, `{"ErrorCode":0,"Payment":{"PaymentID":1}}`},
		{503, "", ""},
	} {
		s := newServer(t, reply(tc.status, tc.body))
		c := newClient(t, s, v1.WithRetries(0, 0))
		p, resp, err := c.GetPayment(context.Background(), "1")
		assert.Nil(t, p)
		require.True(t, v1.IsServerFailure(err), "%d: %v", tc.status, err)
		assert.False(t, v1.IsNotFound(err), "the body of a failure is not an answer")
		var he *v1.HTTPError
		require.ErrorAs(t, err, &he)
		assert.Equal(t, tc.status, he.StatusCode)
		assert.Equal(t, tc.excerpt, he.Excerpt)
		assert.Equal(t, "getPayment", he.Operation)
		assert.NotContains(t, err.Error(), "\x1b")
		assert.Equal(t, tc.status, resp.StatusCode)
		assert.Equal(t, tc.body, string(resp.Body))
	}
}

// The password, the hash and the full URL never reach an error or the log,
// even when the server echoes them.
func TestSecretsStayOutOfErrorsAndLogs(t *testing.T) {
	var hashes []string
	var mu sync.Mutex
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		mu.Lock()
		hashes = append(hashes, r.URL.Query().Get("hash"))
		mu.Unlock()
		echo := testPassword + " " + r.URL.RawQuery + " " + r.URL.Query().Get("hash")
		switch n {
		case 0:
			reply(http.StatusInternalServerError, "failed: "+echo)(w, r, n)
		case 1:
			reply(http.StatusOK, `{"ErrorCode":-7,"Message":"bad hash for `+echo+`"}`)(w, r, n)
		case 2:
			reply(http.StatusOK, `{"ErrorCode":0,"Payment":{"Amount":"`+testPassword+`"}}`)(w, r, n)
		default:
			testkit.DropConnection(w)
		}
	})
	var entries []v1.RequestLogEntry
	c := newClient(t, s, v1.WithRetries(0, 0), v1.WithRequestLog(func(e v1.RequestLogEntry) {
		mu.Lock()
		defer mu.Unlock()
		entries = append(entries, e)
	}))
	var errs []error
	for range 4 {
		_, _, err := c.GetPayment(context.Background(), "1")
		require.Error(t, err)
		errs = append(errs, err)
	}
	assert.True(t, v1.IsServerFailure(errs[0]))
	assert.True(t, v1.IsBadSignature(errs[1]))
	assert.ErrorIs(t, errs[2], v1.ErrMalformedResponse)

	mu.Lock()
	defer mu.Unlock()
	require.Len(t, entries, 4)
	text := fmt.Sprintf("%v %#v", errs, entries)
	for _, e := range errs {
		text += e.Error()
	}
	for _, e := range entries {
		if e.Err != nil {
			text += e.Err.Error()
		}
	}
	assert.NotContains(t, text, testPassword)
	for _, h := range hashes {
		assert.NotContains(t, text, h)
		assert.NotContains(t, text, url.QueryEscape(h))
	}
	assert.NotContains(t, errs[3].Error(), "nonce=", "a network error does not quote the URL")
	assert.NotContains(t, errs[3].Error(), s.URL)
	assert.Contains(t, text, "[redacted]")
	assert.Equal(t, v1.CodeBadSignature, entries[1].ErrorCode, "the log carries the ErrorCode")
	assert.Equal(t, "getPayment", entries[1].Operation)
	assert.Equal(t, http.StatusOK, entries[1].Status)
	assert.Equal(t, 0, entries[3].Status, "no answer")
}
