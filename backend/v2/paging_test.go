package v2_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	v2 "paydash/backend/v2"
)

// pages answers a list request by its cursor parameter.
func pages(byCursor map[string]string) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, r *http.Request, n int) {
		body, ok := byCursor[r.URL.Query().Get("cursor")]
		if !ok {
			reply(http.StatusBadRequest, `{"code":"validation_error","message":"unknown cursor"}`)(w, r, n)
			return
		}
		reply(http.StatusOK, body)(w, r, n)
	}
}

func TestPaymentsAllFollowsTheCursorAcrossThreePages(t *testing.T) {
	s := newServer(t, pages(map[string]string{
		"":   `{"items":[{"id":"1"},{"id":"2"}],"cursor":"c2"}`,
		"c2": `{"items":[{"id":"3"},{"id":"4"}],"cursor":"c3"}`,
		"c3": `{"items":[{"id":"5"}]}`,
	}))
	c := newClient(t, s)
	start := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	params := v2.ListParams{MerchantID: "m1", Start: start, End: start.Add(24 * time.Hour)}

	var ids []string
	for p, err := range c.Payments.All(context.Background(), params) {
		require.NoError(t, err)
		ids = append(ids, p.ID)
	}
	assert.Equal(t, []string{"1", "2", "3", "4", "5"}, ids)

	reqs := s.requests()
	require.Len(t, reqs, 3)
	for i, cursor := range []string{"", "c2", "c3"} {
		assert.Equal(t, cursor, reqs[i].Query.Get("cursor"))
		assert.Equal(t, "m1", reqs[i].Query.Get("merchantId"), "every page keeps the filter")
		assert.Equal(t, "2024-05-01T00:00:00Z", reqs[i].Query.Get("start"))
		assert.Equal(t, "2024-05-02T00:00:00Z", reqs[i].Query.Get("end"))
	}
	_, hasCursor := reqs[0].Query["cursor"]
	assert.False(t, hasCursor, "no cursor parameter on the first page")
}

func TestRefundsAndStickersAll(t *testing.T) {
	s := newServer(t, pages(map[string]string{
		"":  `{"items":[{"id":"a"}],"cursor":"n"}`,
		"n": `{"items":[{"id":"b"}],"cursor":""}`,
	}))
	c := newClient(t, s)
	var got []string
	for r, err := range c.Refunds.All(context.Background(), v2.ListParams{MerchantID: "m1"}) {
		require.NoError(t, err)
		got = append(got, r.ID)
	}
	for st, err := range c.Stickers.All(context.Background(), v2.StickerListParams{MerchantID: "m1"}) {
		require.NoError(t, err)
		got = append(got, st.ID)
	}
	assert.Equal(t, []string{"a", "b", "a", "b"}, got)
	assert.Equal(t, "/api/v2/refunds", s.requests()[0].Path)
	assert.Equal(t, "/api/v2/stickers", s.requests()[2].Path)
}

func TestAllStartsAtTheGivenCursor(t *testing.T) {
	s := newServer(t, pages(map[string]string{"c3": `{"items":[{"id":"5"}]}`}))
	var ids []string
	for p, err := range newClient(t, s).Payments.All(context.Background(), v2.ListParams{MerchantID: "m1", Cursor: "c3"}) {
		require.NoError(t, err)
		ids = append(ids, p.ID)
	}
	assert.Equal(t, []string{"5"}, ids)
}

func TestAllGuardsAgainstARepeatedCursor(t *testing.T) {
	cases := map[string]map[string]string{
		"same cursor again": {
			"":     `{"items":[{"id":"1"}],"cursor":"same"}`,
			"same": `{"items":[{"id":"2"}],"cursor":"same"}`,
		},
		"a cycle": {
			"":  `{"items":[{"id":"1"}],"cursor":"a"}`,
			"a": `{"items":[{"id":"2"}],"cursor":"b"}`,
			"b": `{"items":[{"id":"3"}],"cursor":"a"}`,
		},
	}
	for name, byCursor := range cases {
		t.Run(name, func(t *testing.T) {
			s := newServer(t, pages(byCursor))
			var ids []string
			var errs []error
			for p, err := range newClient(t, s).Payments.All(context.Background(), v2.ListParams{MerchantID: "m1"}) {
				if err != nil {
					errs = append(errs, err)
					continue
				}
				ids = append(ids, p.ID)
			}
			require.Len(t, errs, 1, "one error, then the iteration ends")
			assert.ErrorIs(t, errs[0], v2.ErrRepeatedCursor)
			assert.Len(t, ids, len(byCursor), "every page read once")
			assert.Len(t, s.requests(), len(byCursor))
		})
	}
}

func TestAllStopsAtTheFirstError(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			reply(http.StatusOK, `{"items":[{"id":"1"}],"cursor":"c2"}`)(w, r, n)
			return
		}
		reply(http.StatusForbidden, `{"code":"not_authorized","message":"no"}`)(w, r, n)
	})
	var ids []string
	var lastErr error
	calls := 0
	for p, err := range newClient(t, s).Payments.All(context.Background(), v2.ListParams{MerchantID: "m1"}) {
		calls++
		if err != nil {
			lastErr = err
			assert.Empty(t, p.ID, "zero item with the error")
			continue
		}
		ids = append(ids, p.ID)
	}
	assert.Equal(t, []string{"1"}, ids)
	assert.Equal(t, 2, calls)
	assert.True(t, v2.IsNotAuthorized(lastErr))
}

func TestBreakingOutOfAllStopsFetching(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		reply(http.StatusOK, fmt.Sprintf(`{"items":[{"id":"%d"},{"id":"x"}],"cursor":"c%d"}`, n, n+1))(w, r, n)
	})
	for p, err := range newClient(t, s).Payments.All(context.Background(), v2.ListParams{MerchantID: "m1"}) {
		require.NoError(t, err)
		assert.Equal(t, "0", p.ID)
		break
	}
	assert.Len(t, s.requests(), 1)
}
