package backend

import (
	"slices"
	"sync"
)

// ActionName names something a support person can do that changes the
// service (or a read not every login may do). It is paydash's one name for
// it, distinct from the keymap's keys.Action: the capabilities grey keys by
// it, each action kind is registered under it (backend/action), and the
// journal's "action" field is written with it (so the values never change:
// journals of earlier runs are read with them).
type ActionName string

const (
	ActionCapture            ActionName = "capture"
	ActionCancelHold         ActionName = "cancel_hold"
	ActionRefund             ActionName = "refund"
	ActionRevokeToken        ActionName = "revoke_token"
	ActionToggleSticker      ActionName = "toggle_sticker"
	ActionCreateInvoice      ActionName = "create_invoice_link"
	ActionCreateSticker      ActionName = "create_sticker"
	ActionCreateTokenization ActionName = "create_tokenization_link"
)

// Reads that not every login may do: a v1 Cashier sees payments only.
const (
	ReadRefunds   ActionName = "read_refunds"
	ReadRegisters ActionName = "read_registers"
)

// Actions lists every action, in the order the UI shows them.
var Actions = []ActionName{
	ActionCapture, ActionCancelHold, ActionRefund, ActionRevokeToken, ActionToggleSticker,
	ActionCreateInvoice, ActionCreateSticker, ActionCreateTokenization,
}

// v2Only are the actions that exist only in the current interface (v2):
// a backend over the legacy one (v1) refuses them. Each action kind says
// so itself (backend/action, its V2Only method) and action.Register marks
// it here: this package cannot ask backend/action, which imports it.
var v2Only struct {
	sync.RWMutex
	names []ActionName
}

// MarkV2Only records that the action a exists only in the current
// interface (v2). backend/action's Register calls it for every kind whose
// V2Only is true; a backend over v1 opened afterwards refuses a.
func MarkV2Only(a ActionName) {
	v2Only.Lock()
	defer v2Only.Unlock()
	if !slices.Contains(v2Only.names, a) {
		v2Only.names = append(v2Only.names, a)
	}
}

// v2OnlyActions are the actions marked by MarkV2Only.
func v2OnlyActions() []ActionName {
	v2Only.RLock()
	defer v2Only.RUnlock()
	return slices.Clone(v2Only.names)
}

// Capabilities says what the configured credentials may do, and why not, so
// the UI can grey a key out with the reason instead of letting the service
// refuse. What the v2 token may do is learned: the spec has no way to ask,
// so the first `not_authorized` answer to a write marks writes as refused.
type Capabilities struct {
	mu     sync.RWMutex
	denied map[ActionName]string
}

func newCapabilities() *Capabilities {
	return &Capabilities{denied: map[ActionName]string{}}
}

// Can reports whether the action may be tried, and if not, why.
func (c *Capabilities) Can(a ActionName) (ok bool, reason string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if r, found := c.denied[a]; found {
		return false, r
	}
	return true, ""
}

// deny marks actions as refused with a reason; the first reason given stays,
// since it is usually the most fundamental (read-only beats a learned refusal).
func (c *Capabilities) deny(reason string, actions ...ActionName) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, a := range actions {
		if _, found := c.denied[a]; !found {
			c.denied[a] = reason
		}
	}
}
