package backend

import "sync"

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
