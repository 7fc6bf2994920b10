package action

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"paydash/backend"
	"paydash/backend/textsafe"
)

// toggleSticker switches a sticker on or off (its Params: toggleParams).
type toggleSticker struct{ Base }

func init() { Register(toggleSticker{}) }

// toggleParams is a toggle's journal params: the state it sets.
type toggleParams struct {
	Active bool `json:"active"`
}

// NewToggle makes the switching of the sticker stickerID on (active) or
// off, with a fresh ID. via must be v2.
func NewToggle(stickerID string, active bool, via backend.Interface) Request {
	return Request{ID: backend.NewIdempotencyKey(), Kind: backend.ActionToggleSticker, ObjectID: stickerID,
		Params: toggleParams{Active: active}, Interface: via}
}

// SwitchesOn reports whether a toggle switches its sticker on.
func SwitchesOn(req Request) bool { return ParamsOf[toggleParams](req).Active }

func (toggleSticker) Action() backend.ActionName { return backend.ActionToggleSticker }
func (toggleSticker) V2Only() bool               { return true }

func (toggleSticker) Validate(req Request) error {
	if req.ObjectID == "" {
		return errors.New("no sticker is named")
	}
	return nil
}

func (toggleSticker) Describe(r Request) string {
	id := textsafe.Line(r.ObjectID, 80)
	switch {
	case r.unread != "":
		return "switch of sticker " + id + " on or off"
	case SwitchesOn(r):
		return "switch-on of sticker " + id
	}
	return "switch-off of sticker " + id
}

func (toggleSticker) DoneText(r Request, o Outcome) string {
	id := textsafe.Line(r.ObjectID, 80)
	s := "Sticker " + id + " switched off"
	if SwitchesOn(r) {
		s = "Sticker " + id + " switched on"
	}
	if st := textsafe.Line(o.Sticker.Status, 40); st != "" {
		s += " — now " + st
	}
	return s
}

func (toggleSticker) Where() string { return "the sticker" }
func (toggleSticker) Doing() string { return "switching" }

func (toggleSticker) Send(ctx context.Context, r *Runner, req Request) (o Outcome, err error) {
	o.Sticker, err = r.Backend.SetStickerActive(ctx, req.ObjectID, SwitchesOn(req))
	return o, err
}

func (toggleSticker) Denied(req Request, o Outcome) string {
	if o.Sticker.Status != stickerState(SwitchesOn(req)) {
		return "the sticker is " + textsafe.Line(o.Sticker.Status, 40)
	}
	return ""
}

// Check reads the sticker: in the state set is done, in the other state
// not done, with the same reading as a revoke's.
func (toggleSticker) Check(ctx context.Context, r *Runner, req Request) Outcome {
	if req.ObjectID == "" {
		return Outcome{State: Unknown, Err: errors.New("its journal line names no token or sticker")}
	}
	s, err := r.Backend.GetSticker(ctx, req.ObjectID)
	if err != nil {
		return unreadable(err)
	}
	want, other := stickerState(SwitchesOn(req)), stickerState(!SwitchesOn(req))
	o := Outcome{Sticker: s, How: HowReadSticker}
	switch s.Status {
	case want:
		o.State = Done
	case other:
		o.State, o.Err = NotDone, errors.New("the sticker is still "+other)
	default:
		return Outcome{State: Unknown, Sticker: s,
			Err: fmt.Errorf("the sticker is %q, a state paydash does not know", textsafe.Line(s.Status, 40))}
	}
	return o
}

// Result is the sticker's status: "Inactive".
func (toggleSticker) Result(_ Request, o Outcome) string { return textsafe.Line(o.Sticker.Status, 40) }

func (toggleSticker) Params(req Request) any { return toggleParams{Active: SwitchesOn(req)} }

func (toggleSticker) ReadParams(raw json.RawMessage, req *Request) error {
	var p toggleParams
	if err := decodeParams(raw, &p); err != nil {
		return err
	}
	req.Params = p
	return nil
}

func (toggleSticker) Locks(req Request) (ObjectRef, bool) {
	return ObjectRef{ObjectSticker, req.ObjectID}, true
}

// stickerState is the sticker status a toggle sets.
func stickerState(active bool) string {
	if active {
		return "Active"
	}
	return "Inactive"
}
