package viewtest

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// ReadCSVFile reads an exported CSV file whole.
func ReadCSVFile(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	return recs
}

// ReadJSONFile reads an exported JSON file: an array of objects whose
// values are strings or null.
func ReadJSONFile(t *testing.T, path string) []map[string]*string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []map[string]*string
	require.NoError(t, json.Unmarshal(data, &out), "%s", data)
	return out
}

// BoxText is a dialog's text as one line of words, its border left out.
func BoxText(s string) string {
	for _, b := range []string{"│", "╭", "╮", "╰", "╯", "─"} {
		s = strings.ReplaceAll(s, b, " ")
	}
	return strings.Join(strings.Fields(s), " ")
}

func Strp(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// --- the Payments tab ------------------------------------------------------------

// PaymentHeader is the export's header: the fields, in their order.
var PaymentHeader = []string{"id", "status", "amount", "currency", "captured", "refunded", "created_utc",
	"completed_utc", "updated_utc", "order_no", "description", "invoice_expires_utc", "invoice_params",
	"customer_ip", "customer_identifier", "customer_phone", "payment_method", "instrument", "card_brand",
	"card_issuer", "card_country", "card_type", "card_category", "agreement", "token_id", "merchant_id",
	"result_code", "result_meaning", "message", "confirmation", "payment_url", "test_mode", "read_through",
	"v1_state", "v1_paid_amount", "v1_error_code"}
