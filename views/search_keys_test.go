package views

import (
	"testing"

	"paydash/views/internal/viewtest"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
)

// The prompt says a field typed apart from its value as it is typed.
func TestSearchSaysDidYouMean(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{}, 80, 24)
	e.Press("/")
	e.TypeText("status:held amount > 1000")
	assert.Contains(t, ansi.Strip(e.View(80, 24)), "✗ did you mean amount:>1000?")
}
