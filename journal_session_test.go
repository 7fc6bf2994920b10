package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/config"
)

// At start only the actions sent to the service configured now are found
// out; those of another service, or of no service named (an older
// paydash), are listed in the warnings and never sent anywhere.
func TestOpenSessionFindsOutOnlyTheActionsOfItsService(t *testing.T) {
	ts := newTestSystem(t)
	ts.Env[config.EnvV2Token] = "tok-123"
	jpath := filepath.Join(t.TempDir(), "j.jsonl")
	here := action.ServicesOf(backend.Config{BaseURL: "https://pay.example.com", V2Token: "tok-123"})
	other := journal.NewService("https://other-host", "v2", false, "tok-123")
	sent := func(id, object string, s *journal.Service) string {
		e := journal.Entry{Time: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC), Action: "refund", Phase: journal.PhaseSent,
			ObjectID: object, Amount: "100.00", Currency: "RUB", Interface: "v2", IdempotencyKey: "k-" + id, ActionID: id, Service: s}
		b, err := json.Marshal(e)
		require.NoError(t, err)
		return string(b) + "\n"
	}
	embedded := journal.NewService("https://127.0.0.1:41234", "v2", true, "pdv2_earlier")
	require.NoError(t, os.WriteFile(jpath, []byte(
		sent("mine", "43149010", &here[0])+sent("theirs-1", "43149011", &other)+sent("theirs-2", "43149012", &other)+
			sent("old", "43149013", nil)+sent("practice", "43149014", &embedded)), 0o600))

	s, err := config.Load([]string{"--base-url", "https://pay.example.com", "--merchant", "1001", "--journal", jpath}, ts.sys())
	require.NoError(t, err)
	sess, err := openSession(context.Background(), s, time.Now())
	require.NoError(t, err)
	defer sess.Close()
	require.Len(t, sess.pending, 1)
	assert.Equal(t, "mine", sess.pending[0].ID)
	assert.Contains(t, noticeTexts(sess), "2 actions left open on https://other-host — not checked here; start paydash against that service to check them: "+
		"refund of 100.00 RUB for payment 43149011, refund of 100.00 RUB for payment 43149012")
	// An earlier run's embedded sandbox is gone with nothing real at
	// stake: a warning, not a dialog at every start.
	assert.Len(t, sess.notices, 2)
	assert.Contains(t, strings.Join(sess.warnings, "\n"), "1 action left open on the embedded sandbox of an earlier run")
	assert.Contains(t, noticeTexts(sess), "1 action left open by an older paydash, which did not note the service it sent it to — not checked here; "+
		"check it by hand: refund of 100.00 RUB for payment 43149013")
	require.NoError(t, sess.Close())

	// Other credentials at the same address: another service.
	ts.Env[config.EnvV2Token] = "tok-456"
	s, err = config.Load([]string{"--base-url", "https://pay.example.com", "--merchant", "1001", "--journal", jpath}, ts.sys())
	require.NoError(t, err)
	sess, err = openSession(context.Background(), s, time.Now())
	require.NoError(t, err)
	defer sess.Close()
	assert.Empty(t, sess.pending)
	assert.Contains(t, strings.Join(noticeTexts(sess), "\n"), "1 action left open on https://pay.example.com under other v2 credentials")
}

// A symbolic link where the journal or its lock file goes is refused with
// what it is, and left as it is with its target.
func TestOpenSessionRefusesAJournalThroughALink(t *testing.T) {
	for _, which := range []string{"journal", "lock"} {
		t.Run(which, func(t *testing.T) {
			ts := newTestSystem(t)
			ts.Env[config.EnvV2Token] = "tok-123"
			dir := t.TempDir()
			jpath := filepath.Join(dir, "j.jsonl")
			victim := filepath.Join(dir, "victim")
			require.NoError(t, os.WriteFile(victim, []byte("keep me\n"), 0o600))
			link := jpath
			if which == "lock" {
				link = journal.LockPath(jpath)
			}
			require.NoError(t, os.Symlink(victim, link))
			s, err := config.Load([]string{"--base-url", "https://pay.example.com", "--merchant", "1001", "--journal", jpath}, ts.sys())
			require.NoError(t, err)
			_, err = openSession(context.Background(), s, time.Now())
			require.Error(t, err)
			assert.Contains(t, err.Error(), link+" is a symbolic link to "+victim+", not a regular file; paydash does not write through it and leaves it as it is")
			assert.Contains(t, err.Error(), "give --journal PATH somewhere paydash may write")
			got, _ := os.ReadFile(victim)
			assert.Equal(t, "keep me\n", string(got))
		})
	}
}

// A start on a journal past its size rolls it over, and says where the old
// one went only when something was wrong.
func TestOpenSessionRollsTheJournalOver(t *testing.T) {
	old := journal.RolloverSize
	journal.RolloverSize = 512
	t.Cleanup(func() { journal.RolloverSize = old })
	ts := newTestSystem(t)
	ts.Env[config.EnvV2Token] = "tok-123"
	jpath := filepath.Join(t.TempDir(), "j.jsonl")
	here := action.ServicesOf(backend.Config{BaseURL: "https://pay.example.com", V2Token: "tok-123"})
	var b bytes.Buffer
	for i, phase := range []string{journal.PhaseSent, journal.PhaseDone, journal.PhaseSent} {
		id := []string{"a", "a", "b"}[i]
		line, _ := json.Marshal(journal.Entry{Time: time.Now().Add(-time.Minute), Action: "capture", Phase: phase, ObjectID: "4314901" + id,
			Amount: "100.00", Currency: "RUB", Interface: "v2", ActionID: id, Service: &here[0]})
		b.Write(append(line, '\n'))
	}
	b.WriteString(strings.Repeat(" ", 600) + "\n") // past the size
	require.NoError(t, os.WriteFile(jpath, b.Bytes(), 0o600))

	s, err := config.Load([]string{"--base-url", "https://pay.example.com", "--merchant", "1001", "--journal", jpath}, ts.sys())
	require.NoError(t, err)
	sess, err := openSession(context.Background(), s, time.Now())
	require.NoError(t, err)
	defer sess.Close()
	require.Len(t, sess.pending, 1)
	assert.Equal(t, "b", sess.pending[0].ID)
	assert.Empty(t, sess.warnings)
	assert.Empty(t, sess.notices)
	files, err := journal.Files(jpath)
	require.NoError(t, err)
	require.Len(t, files, 2, "the old file archived beside the new one")
	kept, _ := os.ReadFile(files[0])
	assert.Equal(t, b.String(), string(kept))
}

func TestTheProgressLine(t *testing.T) {
	var out bytes.Buffer
	show := progressLine(&out)
	show(journal.Progress{Read: 1 << 20, Total: 8 << 20})
	assert.Empty(t, out.String(), "a small journal is read before anyone could read a line about it")
	show(journal.Progress{Read: 412e6, Total: 1.02e9, RollingOver: true})
	show(journal.Progress{Read: 830e6, Total: 1.02e9, RollingOver: true})
	show(journal.Progress{Read: 1.02e9, Total: 1.02e9, RollingOver: true})
	assert.Equal(t, "\r\x1b[Kpaydash: rolling the journal over: 412 MB of 1.0 GB…"+
		"\r\x1b[Kpaydash: rolling the journal over: 830 MB of 1.0 GB…"+
		"\r\x1b[K", out.String(), "rewritten in place, and cleared at the end")
}

// noticeTexts are the lines of the notices the dashboard shows at start.
func noticeTexts(sess *session) []string {
	var out []string
	for _, n := range sess.notices {
		out = append(out, n.Text)
	}
	return out
}
