package main

import (
	"bytes"
	"context"
	"crypto/x509"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/sandbox"
	v1 "paydash/backend/v1"
)

// The end-to-end test of the Registers tab: the built binary in a
// pseudo-terminal against `paydash sandbox` in another process, with the
// accountant's v1 login, opens the newest transfer's register (5, enter),
// sees it add up, shows its XML (w), searches it (/), and saves it
// (ctrl+s, a path, enter). The file must hold the register exactly as the
// service answers getTransferRegister with xml=1.

// selectedTransfer is the selected row of the transfers list: date,
// amount, currency, payment order, register.
// The amount may be below zero: a day whose refunds outweigh its payments
// (today's, early in the day) is transferred back.
var selectedTransfer = regexp.MustCompile(`(?m)^> (\d{4}-\d\d-\d\d) +(-?[\d,]+\.\d+) ([A-Z]{3}) (\d+) +(\d+) *$`)

func TestEndToEndRegistersSavesTheXMLAsReceived(t *testing.T) {
	s := newReadOnlySession(t, true)
	start := time.Now()
	tm := s.start(s.merchant)

	tm.settle()
	tm.send(t, "5")
	screen := tm.waitFor(t, "the transfers list", func(sc string) bool {
		return strings.Contains(sc, "[5 Registers]") && strings.Contains(sc, "Transfers of the v1 account") &&
			selectedTransfer.MatchString(sc)
	})
	row := selectedTransfer.FindStringSubmatch(screen)
	registerID := row[5]
	t.Logf("register %s of the transfer of %s, %s %s", registerID, row[1], row[2], row[3])

	tm.settle()
	tm.send(t, "\r")
	tm.waitFor(t, "the register adding up", func(sc string) bool {
		return strings.Contains(sc, "✓ The operations add up to the transfer: "+row[2]+" "+row[3])
	})
	tm.settle()
	tm.send(t, "w")
	tm.waitFor(t, "the XML view", func(sc string) bool {
		return strings.Contains(sc, "XML as received") && strings.Contains(sc, "<RegisterID>"+registerID+"</RegisterID>")
	})
	tm.settle()
	tm.send(t, "/")
	tm.waitFor(t, "the search input", func(sc string) bool { return strings.Contains(sc, "search the XML") })
	tm.send(t, "OperationID")
	tm.waitFor(t, "the query typed", func(sc string) bool { return strings.Contains(sc, "/ OperationID") })
	tm.send(t, "\r")
	tm.waitFor(t, "the first match", func(sc string) bool { return strings.Contains(sc, `match 1 of `) })

	tm.settle()
	tm.send(t, "\x13") // ctrl+s
	tm.waitFor(t, "the save dialog", func(sc string) bool {
		return strings.Contains(sc, "Save register") && strings.Contains(sc, "the XML as received")
	})
	tm.send(t, "\x15") // ctrl+u: the default name goes
	path := filepath.Join(t.TempDir(), "register.xml")
	tm.send(t, path)
	tm.waitFor(t, "the path typed", func(sc string) bool { // the field scrolls: its end shows
		return strings.Contains(sc, string(filepath.Separator)+filepath.Base(path)+" ") && !strings.Contains(sc, "register-")
	})
	tm.send(t, "\r")
	tm.waitFor(t, "the register saved", func(sc string) bool { return strings.Contains(sc, "Saved ") })

	got, err := os.ReadFile(path)
	require.NoError(t, err)
	want := serviceRegisterXML(t, s.info, registerID)
	require.NotEmpty(t, want)
	assert.True(t, bytes.Equal(want, got), "the file holds the register as the service sends it (%d bytes, want %d)", len(got), len(want))
	assert.True(t, bytes.HasPrefix(got, []byte("<?xml")), "the XML, not the operations")

	tm.settle()
	tm.send(t, "q")
	code := tm.wait(t, 10*time.Second)
	assert.Equal(t, 0, code, "paydash exits 0 on q; the last output:\n%s", tm.tailIf(code != 0))
	t.Logf("registers end to end in %s", time.Since(start).Round(time.Millisecond))
}

// serviceRegisterXML asks the sandbox for a register as XML (getTransferRegister,
// xml=1) with the accountant's login, and returns the body as received.
func serviceRegisterXML(t *testing.T, info sandbox.Info, registerID string) []byte {
	t.Helper()
	pem, err := os.ReadFile(info.CAFile)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(pem))
	var accountant sandbox.V1User
	for _, u := range info.V1Users {
		if u.Role == sandbox.RoleAccountant {
			accountant = u
		}
	}
	require.NotEmpty(t, accountant.Login)
	api, err := v1.NewClient(info.BaseURL, accountant.Login, accountant.Password, v1.WithRootCAs(pool))
	require.NoError(t, err)
	reg, resp, err := api.GetTransferRegister(context.Background(), registerID, true)
	require.NoError(t, err)
	require.Equal(t, registerID, reg.RegisterID)
	return resp.Body
}
