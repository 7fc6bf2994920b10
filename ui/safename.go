package ui

import (
	"path/filepath"
	"strings"
	"unicode/utf8"

	"paydash/backend/textsafe"
)

// safeNameMax is the longest name SafeFileName returns, in bytes.
const safeNameMax = 120

// SafeFileName turns a file name that came from a server (a document's
// name) into a base name that is safe to offer as a path: the last part
// of it only (no folders, no "..", whatever the separator: / \ or a
// drive's :), no escape sequences, control, bidi or other invisible
// characters, no character Windows forbids (< > : " | ? * become _), no
// leading dot (which would hide the file) or dash (which a command would
// read as an option), no trailing dot or space, not a Windows device name
// (CON, NUL, COM1…), at most 120 bytes with the extension kept. When
// nothing usable is left it is fallback, made safe the same way ("file"
// if even that is empty).
func SafeFileName(name, fallback string) string {
	if s := safeName(name); s != "" {
		return s
	}
	if s := safeName(fallback); s != "" {
		return s
	}
	return "file"
}

func safeName(name string) string {
	// One line of printable text; runs of spaces become one.
	name = textsafe.Line(name, 0)
	// The last part of a path of any system.
	name = strings.TrimRight(name, `/\ `)
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		switch r {
		case '<', '>', ':', '"', '|', '?', '*', utf8.RuneError:
			return '_'
		}
		return r
	}, name)
	name = strings.TrimLeft(name, ". -")
	name = strings.TrimRight(name, ". ")
	if name == "" {
		return ""
	}
	name = cutName(name, safeNameMax)
	if windowsDevice(name) {
		name = "_" + name
	}
	return name
}

// cutName cuts name to at most n bytes, at a character's edge, keeping its
// extension (a short one: ".csv", ".xml").
func cutName(name string, n int) string {
	if len(name) <= n {
		return name
	}
	ext := filepath.Ext(name)
	if len(ext) > 16 || len(ext) >= len(name) {
		ext = ""
	}
	stem := name[:len(name)-len(ext)]
	limit := n - len(ext)
	for len(stem) > limit {
		_, size := utf8.DecodeLastRuneInString(stem)
		stem = stem[:len(stem)-size]
	}
	stem = strings.TrimRight(stem, ". ")
	if stem == "" {
		return ""
	}
	return stem + ext
}

// windowsDevice: the name (before its first dot) is one Windows reserves.
func windowsDevice(name string) bool {
	stem, _, _ := strings.Cut(name, ".")
	switch strings.ToUpper(strings.TrimSpace(stem)) {
	case "CON", "PRN", "AUX", "NUL",
		"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
		"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9":
		return true
	}
	return false
}
