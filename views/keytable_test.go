package views

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/payments"
	"paydash/views/refunds"
	"paydash/views/registers"
	"paydash/views/stickers"
	"paydash/views/tokens"
)

// A tab's table of keys is the one place that says what works on it: a
// key it does not declare is unavailable, with no reason (the help and the
// palette leave it out), whatever state the tab is in.
func TestATabOffersOnlyTheKeysItDeclares(t *testing.T) {
	t.Parallel()
	undeclared := map[string][]keys.Action{
		"payments":  {keys.ActToggleSticker, keys.ActDocuments, keys.ActNextMatch, keys.ActPrevMatch},
		"refunds":   {keys.ActCapture, keys.ActCancelHold, keys.ActRefund, keys.ActRevoke, keys.ActToggleSticker, keys.ActNew, keys.ActDocuments},
		"tokens":    {keys.ActCapture, keys.ActCancelHold, keys.ActRefund, keys.ActToggleSticker, keys.ActDocuments},
		"stickers":  {keys.ActCapture, keys.ActCancelHold, keys.ActRefund, keys.ActRevoke, keys.ActDocuments},
		"registers": {keys.ActCapture, keys.ActCancelHold, keys.ActRefund, keys.ActRevoke, keys.ActToggleSticker, keys.ActNew},
	}
	makers := map[string]func(Deps) ui.Tab{
		"payments": payments.New, "refunds": refunds.New, "tokens": tokens.New,
		"stickers": stickers.New, "registers": registers.New,
	}
	for name, make := range makers {
		e := startedEnv(t, viewtest.Opts{WithV1: true, Tab: make}, 120, 40)
		for _, a := range append(undeclared[name], keys.Action("not_a_key")) {
			ok, why := e.Tab.Available(a)
			assert.False(t, ok, "%s offers %s", name, a)
			assert.Empty(t, why, "%s gives a reason for %s, which it does not have", name, a)
		}
		ok, _ := e.Tab.Available(keys.ActDown)
		assert.True(t, ok, "%s moves down its list", name)
	}
}
