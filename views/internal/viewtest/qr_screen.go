package viewtest

import (
	"paydash/ui"
	"paydash/ui/qr/qrtest"
)

const QRLink = "https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000001&sum=150000&cur=RUB&crc=C08B"

// QRCases are the dashboard's themes, each with the terminals it may be
// shown on: the one it was made for, and for a colour theme also that
// terminal showing no colours (the colours lost on the way).
func QRCases() []struct {
	Th   ui.Theme
	Term qrtest.Terminal
} {
	var out []struct {
		Th   ui.Theme
		Term qrtest.Terminal
	}
	for _, dark := range []bool{true, false} {
		for _, noColor := range []bool{false, true} {
			th := ui.NewTheme(dark, noColor)
			out = append(out, struct {
				Th   ui.Theme
				Term qrtest.Terminal
			}{th, qrtest.Terminal{Dark: dark, Colour: !noColor}})
			if !noColor {
				out = append(out, struct {
					Th   ui.Theme
					Term qrtest.Terminal
				}{th, qrtest.Terminal{Dark: dark}})
			}
		}
	}
	return out
}
