package backend

import "sync"

// Action is something a support person can do that changes the service.
// It is paydash's one name for it: the capabilities grey keys by it, and
// the journal's "action" field is written with it (so the values never
// change: journals of earlier runs are read with them).
type Action string

const (
	ActionCapture            Action = "capture"
	ActionCancelHold         Action = "cancel_hold"
	ActionRefund             Action = "refund"
	ActionRevokeToken        Action = "revoke_token"
	ActionToggleSticker      Action = "toggle_sticker"
	ActionCreateInvoice      Action = "create_invoice_link"
	ActionCreateSticker      Action = "create_sticker"
	ActionCreateTokenization Action = "create_tokenization_link"
)

// Reads that not every login may do: a v1 Cashier sees payments only.
const (
	ReadRefunds   Action = "read_refunds"
	ReadRegisters Action = "read_registers"
)

// Actions lists every action, in the order the UI shows them.
var Actions = []Action{
	ActionCapture, ActionCancelHold, ActionRefund, ActionRevokeToken, ActionToggleSticker,
	ActionCreateInvoice, ActionCreateSticker, ActionCreateTokenization,
}

// Capabilities says what the configured credentials may do, and why not, so
// the UI can grey a key out with the reason instead of letting the service
// refuse. What the v2 token may do is learned: the spec has no way to ask,
// so the first `not_authorized` answer to a write marks writes as refused.
type Capabilities struct {
	mu     sync.RWMutex
	denied map[Action]string
}

func newCapabilities() *Capabilities {
	return &Capabilities{denied: map[Action]string{}}
}

// Can reports whether the action may be tried, and if not, why.
func (c *Capabilities) Can(a Action) (ok bool, reason string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if r, found := c.denied[a]; found {
		return false, r
	}
	return true, ""
}

// deny marks actions as refused with a reason; the first reason given stays,
// since it is usually the most fundamental (read-only beats a learned refusal).
func (c *Capabilities) deny(reason string, actions ...Action) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, a := range actions {
		if _, found := c.denied[a]; !found {
			c.denied[a] = reason
		}
	}
}
