package ui

import (
	"fmt"

	"paydash/backend/textsafe"
	"paydash/keys"
)

// helpLine is the save dialog's key help for the step it is at.
func (s *saveModal) helpLine(width int) string {
	quit := [2]string{"ctrl+c", "quit"}
	switch s.state {
	case saveProducing:
		return helpLine(s.th, width, [2]string{keys.Label(s.cancelKeys()), "cancel (nothing is written yet)"}, quit)
	case saveWriting:
		return helpLine(s.th, width, [2]string{"…", "writing the file, keys wait"}, quit)
	case saveAsking:
		yes := "overwrite"
		if s.linkTo != "" {
			yes = "replace its target"
		}
		return helpLine(s.th, width, [2]string{keys.Label(s.km.Modal.Confirm.Keys()), yes},
			[2]string{keys.Label(s.km.Modal.Cancel.Keys()), "back to the path"}, quit)
	}
	return helpLine(s.th, width, [2]string{keys.Label(s.saveKeys()), "save"},
		[2]string{keys.Label(s.cancelKeys()), "cancel"}, quit)
}

func (s *saveModal) View(maxWidth, maxHeight int) string {
	th := s.th
	inner := max(min(maxWidth-boxFrame, 72), 10)

	lines := []string{th.Title.Render(s.title)}
	if s.what != "" {
		lines = append(lines, wrapStyled(th.Text, "Saves "+s.what, inner)...)
	}
	lines = append(lines, "", th.Muted.Render("Save to (a relative path is in the working directory, ~/ is home):"),
		"> "+s.input.View())

	var msgs []string
	switch s.state {
	case saveProducing:
		msgs = wrapStyled(th.Accent, "saving… getting the data", inner)
	case saveWriting:
		msgs = wrapStyled(th.Accent, "saving… writing the file", inner)
	case saveAsking:
		yn := firstKey(s.km.Modal.Confirm.Keys(), "y") + "/" + firstKey(s.km.Modal.Cancel.Keys(), "n")
		q := fmt.Sprintf("%s exists (%s). Overwrite it? %s", textsafe.Line(s.target, 300), s.about, yn)
		if s.linkTo != "" {
			q = fmt.Sprintf("%s is a symbolic link to %s (%s). Replace the file it points to? %s",
				textsafe.Line(s.target, 300), textsafe.Line(s.linkTo, 300), s.about, yn)
		}
		msgs = wrapStyled(th.Warning, q, inner)
	}
	if s.problem != "" {
		msgs = append(msgs, wrapStyled(th.Danger, "✗ "+s.problem, inner)...)
	}
	if s.note != "" {
		msgs = append(msgs, wrapStyled(th.Warning, "! "+s.note, inner)...)
	}
	// Keep the box within the height: the fixed lines, then as many
	// message lines as fit.
	room := maxHeight - 2 - len(lines) - 2 - 1 // border, blank and hint, blank
	if room < len(msgs) {
		msgs = msgs[:max(room, 0)]
	}
	if len(msgs) > 0 {
		lines = append(lines, "")
		lines = append(lines, msgs...)
	}
	lines = append(lines, "", th.Muted.Render(s.hint()))
	for i, l := range lines {
		lines[i] = fitTail(l, inner)
	}
	return box(th, lines)
}

func (s *saveModal) hint() string {
	switch s.state {
	case saveProducing:
		return keys.Label(s.cancelKeys()) + " cancels: nothing is written yet"
	case saveWriting:
		return "writing the file: keys wait until it is done"
	case saveAsking:
		yes := " overwrite • "
		if s.linkTo != "" {
			yes = " replace the file it points to • "
		}
		return keys.Label(s.km.Modal.Confirm.Keys()) + yes + keys.Label(s.km.Modal.Cancel.Keys()) + " back to the path"
	}
	return keys.Label(s.saveKeys()) + " save • " + keys.Label(s.cancelKeys()) +
		" cancel • an existing file is asked about first"
}

// firstKey is the first of ks, for a prompt ("y/n"), or def.
func firstKey(ks []string, def string) string {
	if len(ks) == 0 {
		return def
	}
	return keys.Label(ks[:1])
}
