package viewtest

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
	"paydash/backend/sandbox"
)

// The Tokens tab (views/tokens/tokens.go, views/tab/known.go) and the revocation of a token from
// a payment's pane (actions.go), against the real sandbox: a token is
// known once read, looked up or seen in a payment; what is confirmed is
// the token revoked, once; every tab sharing the Deps sees it.

// --- helpers ------------------------------------------------------------------

// NewToken saves a card at the sandbox for the scope's merchant, as a
// customer confirming a card-saving page would: the token is Active.
func (e *Env) NewToken() sandbox.PaymentToken {
	e.T.Helper()
	e.mayChange("NewToken")
	st := e.srv.Store()
	tok, err := st.CreatePaymentToken(sandbox.PaymentTokenRequest{
		MerchantID: e.Scope.MerchantID, Type: "cof", PaymentMethod: sandbox.MethodBankCard,
		Card:     &sandbox.CardData{PAN: "4111111111111111", Expiry: "12/30", CVC: "123"},
		Customer: sandbox.Customer{Email: "anna@example.com", Phone: "79161234567", IP: "10.1.2.3"},
	})
	require.NoError(e.T, err)
	tok, err = st.CompletePaymentToken(tok.ID, sandbox.CompleteRequest{})
	require.NoError(e.T, err)
	require.Equal(e.T, sandbox.TokenActive, tok.Status)
	require.NotEmpty(e.T, tok.Title)
	return tok
}

// PayWithToken makes a payment by a saved card, now.
func (e *Env) PayWithToken(tokenID, value string) sandbox.Payment {
	e.T.Helper()
	e.mayChange("PayWithToken")
	st := e.srv.Store()
	m, ok := st.Merchant(e.Scope.MerchantID)
	require.True(e.T, ok)
	amount := money.Amount{Value: money.MustParse(value), Currency: m.Currencies[0]}
	p, err := st.CreatePayment(sandbox.PaymentRequest{
		MerchantID: m.ID, Amount: &amount, PaymentMethod: sandbox.MethodBankCard, TokenID: tokenID,
		Invoice: sandbox.Invoice{OrderNo: "TOK-" + value, Description: "paid by a saved card"},
	})
	require.NoError(e.T, err)
	require.Equal(e.T, tokenID, p.TokenID)
	return p
}

// LineWith is the first line of the stripped view that contains s.
func LineWith(view, s string) string {
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
