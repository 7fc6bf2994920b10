package views

import (
	"fmt"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"

	"paydash/backend/action"
	"paydash/views/tab"
)

// A full disk under the journal says what to do about it.
func TestAJournalOnAFullDiskSaysToFreeSpace(t *testing.T) {
	t.Parallel()
	full := &os.PathError{Op: "write", Path: "/state/journal.jsonl", Err: syscall.ENOSPC}
	err := fmt.Errorf("%w: %w", action.ErrNotRecorded, fmt.Errorf("journal: writing /state/journal.jsonl: %w", full))
	assert.Equal(t, "nothing was sent; free space on the disk that holds the journal, then try again", tab.HintOf(err))
	assert.Empty(t, tab.HintOf(full), "a full disk elsewhere (an export) says its own")
}
