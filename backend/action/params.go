package action

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// The journal's "params" of an action (journal.Entry.Params): what a line
// needs besides its fixed fields to send the action again or find it out.
// A toggle's is the state it sets; a create's, everything its request
// sends but the idempotency key (the line's idempotencyKey). The names are
// the journal's, fixed here rather than taken from the backend's Go types,
// so that a journal stays readable when those change.
//
// Nothing here is a secret: no card number, no bearer token, no password
// (the requests hold none). A create may hold a customer's e-mail or phone,
// which the journal (0600, its directory 0700) keeps as it keeps payments.

// Each kind says what its params are (Kind.Params, Kind.ReadParams; the
// types are in the kind's file).

// params is req's journal params (nil for a kind that has none).
func params(req Request) (json.RawMessage, error) {
	v := KindOf(req.Kind).Params(req)
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("its parameters cannot be written: %w", err)
	}
	return b, nil
}

// readParams fills r's toggle state or create request from a line's params,
// or says in r.unread why it cannot.
func readParams(raw json.RawMessage, r *Request) {
	if err := KindOf(r.Kind).ReadParams(raw, r); err != nil {
		r.unread = err.Error()
	}
}

// decodeParams reads raw into v strictly: a params object with a field this
// paydash does not know was written by a newer one, and sending again
// without that field would not be the same request.
func decodeParams(raw json.RawMessage, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return errors.New("the journal does not hold what was sent (a line without params)")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the journal's params of it cannot be read (%v)", err)
	}
	if dec.More() {
		return errors.New("the journal's params of it cannot be read (more than one value)")
	}
	if m, ok := v.(interface{ merchant() string }); ok && m.merchant() == "" {
		return errors.New("the journal's params of it name no merchant")
	}
	return nil
}
