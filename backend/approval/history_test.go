package approval

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHistoryIsEveryChangeInOrderWhileTheStoreIsOpen(t *testing.T) {
	s, c, path := open(t)
	ch, stop := s.Subscribe()
	defer stop()
	a, err := s.File(refund("100"), "anna", "a")
	require.NoError(t, err)
	b, err := s.File(refund("200"), "anna", "a")
	require.NoError(t, err)
	c.add(time.Minute)
	_, err = s.Claim(a.ID, "boris", "b")
	require.NoError(t, err)
	c.add(time.Minute)
	_, err = s.Reject(b.ID, "boris", "b", " too large ")
	require.NoError(t, err)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("{not json\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())

	evs, damaged, err := History(path) // the store holds its lock meanwhile
	require.NoError(t, err)
	require.Len(t, evs, 4)
	var kinds []EventKind
	for _, ev := range evs {
		kinds = append(kinds, ev.Kind)
	}
	assert.Equal(t, []EventKind{EventFiled, EventFiled, EventClaimed, EventRejected}, kinds)
	assert.Equal(t, t0, evs[0].Time)
	assert.Equal(t, t0.Add(2*time.Minute), evs[3].Time)
	assert.Equal(t, Waiting, evs[0].Request.State, "the request as it was after that change")
	assert.Equal(t, "boris", evs[2].Request.Decider)
	assert.Equal(t, "too large", evs[3].Request.Reason)
	assert.Equal(t, []DamagedLine{{Line: 5, Err: "invalid character 'n' looking for beginning of object key string"}}, damaged)

	assert.Equal(t, t0, (<-ch).Time, "a subscriber's event carries its time too")

	_, _, err = History(filepath.Join(t.TempDir(), "none.jsonl"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
}
