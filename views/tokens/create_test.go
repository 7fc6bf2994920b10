package tokens

import (
	"context"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/backend/sandbox"
	"paydash/keys"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// --- the card-saving link (Tokens tab) ----------------------------------------

func TestCreateTokenizationLinkFromTokensTab(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true, Tab: New}, 80, 24)
	merchant := e.Scope.MerchantID
	before := len(e.Store().TokensOf(merchant))
	assert.Equal(t, "New card-saving link", e.Tab.(viewtest.ActionTargeter).ActionTarget(keys.ActNew))

	d := e.OpenNew()
	fm := d.M.(*tab.FormModal)
	scr := d.Screen()
	assert.Contains(t, scr, "Customer · page 1 of 2")
	assert.Contains(t, scr, "Token type: recurring")
	d.Press("enter")
	d.Shows("Customer account (in your system)", "enter the customer's account in your system")
	d.Field("client-1042")
	d.Field("ann@example")
	d.Shows("Customer e-mail (optional)", "an e-mail address like name@example.com")
	d.Field(".com")
	d.Field("Monthly subscription")

	assert.Contains(t, d.Screen(), "Addresses · page 2 of 2")
	d.Field("shop.example.com/done")
	d.Shows("Return page (optional)", "a full address like https://shop.example.com/done")
	d.Clear()
	d.Field("https://shop.example.com/done")
	d.Field("http://shop.example.com/tokens")
	d.Shows("Callback address (optional, https)", "a callback address must start with https://")
	assert.Len(t, e.Store().TokensOf(merchant), before, "nothing is sent while a field is wrong")
	d.Clear()
	d.Field("https://shop.example.com/tokens")

	summary := []string{
		"Merchant: " + merchant,
		"Token type: recurring",
		"Payment method: bankcard",
		"Purpose: Monthly subscription",
		"Customer account: client-1042",
		"Customer e-mail: ann@example.com",
		"Return page: https://shop.example.com/done",
		"Callback address: https://shop.example.com/tokens",
	}
	d.Confirms(fm.Form, "Create this card-saving link?", summary)
	assert.Empty(t, e.Journal(), "nothing is sent before y")

	d.Confirm()
	tokens := e.Store().TokensOf(merchant)
	require.Len(t, tokens, before+1, "exactly one token made")
	made := tokens[0] // newest first
	assert.Equal(t, sandbox.TokenCreated, made.Status)
	assert.Equal(t, "Monthly subscription", made.Purpose)
	require.NotNil(t, made.Customer)
	assert.Equal(t, "client-1042", made.Customer.Account)
	assert.Equal(t, "ann@example.com", made.Customer.Email)
	tok, err := e.B.GetToken(context.Background(), made.ID)
	require.NoError(t, err, "the backend reads the token")
	assert.Equal(t, made.ID, tok.ID)
	link := e.Store().TokenizationPageURL(made.ID)

	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, "Card-saving link for customer account client-1042 made: token "+made.ID+", "+link, ts[0].Text)
	j := e.Journal()
	require.Len(t, j, 2)
	assert.Equal(t, string(backend.ActionCreateTokenization), j[0].Action)
	assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, []string{j[0].Phase, j[1].Phase})

	r := e.Result()
	big := viewtest.PlainLines(r.View(120, 50))
	assert.Contains(t, big, "Card-saving link made")
	assert.Contains(t, big, "Token "+made.ID)
	assert.Equal(t, link, viewtest.QRIn(t, big))
	small := viewtest.PlainLines(r.View(76, 21))
	assert.Contains(t, small, link)
	assert.Equal(t, link, viewtest.QRIn(t, small))

	// The tab knows the token from then on.
	v := ansi.Strip(e.View(80, 24))
	assert.Contains(t, v, made.ID)
}
