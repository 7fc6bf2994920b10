package keys_test

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"paydash/keys"
)

// The app builds the map once at start, routes every key press through
// Resolve, and tells the user why when a key cannot act.
func Example() {
	km := keys.Default()
	overrides, err := keys.ParseConfig([]byte("[keys]\nrefund = [\"ctrl+r\"]\n"))
	if err == nil {
		err = km.Apply(overrides)
	}
	if err != nil {
		fmt.Println(err)
		return
	}

	readOnly := keys.Availability(func(action keys.Action) (bool, string) {
		switch action {
		case keys.ActCapture, keys.ActCancelHold, keys.ActRefund:
			return false, "read-only mode"
		case keys.ActRevoke, keys.ActToggleSticker:
			return false, "" // no such action on the Payments tab
		}
		return true, ""
	})

	for _, msg := range []tea.KeyPressMsg{
		{Code: 'r', Mod: tea.ModCtrl},
		{Code: 'y', Text: "y"},
		{Code: 'z', Text: "z"},
	} {
		p, ok := km.Resolve(msg, keys.ContextList, readOnly)
		switch {
		case !ok:
			fmt.Printf("%s: nothing\n", msg)
		case !p.Enabled:
			fmt.Printf("%s: %s is not possible: %s\n", msg, p.Binding.Help().Desc, p.Reason)
		default:
			fmt.Printf("%s: do %s\n", msg, p.Action)
		}
	}
	fmt.Println(keys.ShortHelp(km, keys.ContextDetail, readOnly, 80, keys.PlainHelpStyles()))
	// Output:
	// ctrl+r: refund is not possible: read-only mode
	// y: do copy_id
	// z: nothing
	// esc close pane • [c] capture hold • [x] cancel hold • … • ? all keys
}
