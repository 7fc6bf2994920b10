package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWrapWordsKeepsHyphenatedWordsWhole(t *testing.T) {
	assert.Equal(t, []string{"From: write the date as", "yyyy-mm-dd, e.g. 2026-11-21"},
		wrapWords("From: write the date as yyyy-mm-dd, e.g. 2026-11-21", 28))
	assert.Equal(t, []string{"order", "TRV-AYT-28001"}, wrapWords("order TRV-AYT-28001", 14))
	assert.Equal(t, []string{"abcde", "fghij", "k"}, wrapWords("abcdefghijk", 5), "a word longer than the line is cut")
	assert.Equal(t, []string{"short"}, wrapWords("short", 40))
}
