package viewtest

import (
	"strings"
)

// PaneValue is the value of a pane's field as the screen shows it: the
// text right of its label and the lines wrapped under it (blank where the
// label is), joined.
func PaneValue(screen, label string) string {
	var out strings.Builder
	from, col := -1, -1
	for _, l := range strings.Split(screen, "\n") {
		r := []rune(l)
		if col < 0 {
			i := strings.Index(l, label+" ")
			if i < 0 {
				continue
			}
			from = len([]rune(l[:i]))
			col = from + len([]rune(label))
			for col < len(r) && r[col] == ' ' {
				col++
			}
			out.WriteString(strings.TrimRight(string(r[col:]), " "))
			continue
		}
		if len(r) <= col || strings.TrimSpace(string(r[from:col])) != "" {
			break
		}
		next := strings.TrimRight(string(r[col:]), " ")
		if next == "" {
			break
		}
		out.WriteString(next)
	}
	return out.String()
}
