package ui_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The renderer draws a frame after a quiet interval at once, not on the
// next tick of its frame ticker, and still draws at most fps frames a
// second: frames that follow within an interval wait for its tick. The
// Bubble Tea in third_party/bubbletea carries this change (its PATCHES.md
// says why); these tests fail on the stock renderer, which draws only on
// its ticks.

// pressCounter counts the keys pressed and shows the count.
type pressCounter struct{ presses int }

func (m pressCounter) Init() tea.Cmd { return nil }

func (m pressCounter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyPressMsg); ok {
		m.presses++
	}
	return m, nil
}

func (m pressCounter) View() tea.View { return tea.NewView(fmt.Sprintf("presses=%d", m.presses)) }

// screenLog is the program's output, safe to read while it writes: the
// renderer writes each frame it draws in one write, and only the cells
// that changed.
type screenLog struct {
	mu     sync.Mutex
	frames []string
}

func (s *screenLog) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.frames = append(s.frames, string(p))
	return len(p), nil
}

// drawn is how many frames were drawn and the last one.
func (s *screenLog) drawn() (int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.frames) == 0 {
		return 0, ""
	}
	return len(s.frames), s.frames[len(s.frames)-1]
}

// runCounter starts a program at fps frames a second and stops it when
// the test ends.
func runCounter(t *testing.T, fps int) (*tea.Program, *screenLog) {
	out := &screenLog{}
	ctx, cancel := context.WithCancel(context.Background())
	p := tea.NewProgram(pressCounter{}, tea.WithInput(nil), tea.WithOutput(out), tea.WithContext(ctx),
		tea.WithoutSignalHandler(), tea.WithWindowSize(40, 5), tea.WithFPS(fps))
	done := make(chan struct{})
	go func() { _, _ = p.Run(); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return p, out
}

func press(p *tea.Program) { p.Send(tea.KeyPressMsg{Code: 'j', Text: "j"}) }

func TestAKeyAfterAQuietIntervalIsDrawnAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, out := runCounter(t, 10) // a tick every 100 ms
		synctest.Wait()
		n, first := out.drawn()
		require.Positive(t, n, "the first frame is drawn at once")
		require.Contains(t, first, "presses=0")

		time.Sleep(time.Second) // quiet
		before, _ := out.drawn()
		start := time.Now()
		press(p)
		synctest.Wait()
		n, last := out.drawn()
		assert.Equal(t, before+1, n, "the key's frame is drawn without waiting for a tick")
		assert.Contains(t, last, "1", "and it shows the press")
		assert.Equal(t, start, time.Now(), "no time passed")
	})
}

func TestFramesWithinAnIntervalWaitForItsTick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p, out := runCounter(t, 10)
		synctest.Wait()
		time.Sleep(time.Second)
		press(p)
		synctest.Wait()
		before, _ := out.drawn()

		press(p) // within the same 100 ms
		press(p)
		synctest.Wait()
		n, _ := out.drawn()
		assert.Equal(t, before, n, "frames within the interval are not drawn at once")

		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		n, last := out.drawn()
		assert.Equal(t, before+1, n, "the tick draws them as one frame")
		assert.Contains(t, last, "3", "the newest")
	})
}
