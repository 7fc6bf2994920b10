package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDarkFromColorFGBG(t *testing.T) {
	for _, tc := range []struct {
		v           string
		dark, known bool
	}{
		{"15;0", true, true},         // white on black
		{"0;15", false, true},        // black on white
		{"0;7", false, true},         // light grey
		{"7;8", true, true},          // dark grey
		{"12;default;0", true, true}, // rxvt's three parts: the last is the background
		{"", false, false},
		{"15;default", false, false},
		{"0;231", false, false}, // not of the 16-colour palette
	} {
		dark, known := DarkFromColorFGBG(tc.v)
		assert.Equal(t, tc.known, known, tc.v)
		if tc.known {
			assert.Equal(t, tc.dark, dark, tc.v)
		}
	}
}
