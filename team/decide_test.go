package team

import (
	"testing"

	"paydash/backend"
	"paydash/backend/money"
)

func amt(v, cur string) money.Amount { return money.Amount{Value: money.MustParse(v), Currency: cur} }

func TestDecide(t *testing.T) {
	desk := Person{Name: "desk-1", Role: Support, Limits: map[string]money.Decimal{
		"RUB": money.MustParse("10000"), "*": money.MustParse("100"), "KZT": 0}}
	noLimits := Person{Name: "desk-2", Role: Support}
	rubOnly := Person{Name: "desk-3", Role: Support, Limits: map[string]money.Decimal{"RUB": money.MustParse("500")}}
	viewer := Person{Name: "auditor", Role: Viewer}
	lead := Person{Name: "lead", Role: Supervisor}
	cases := []struct {
		name   string
		p      Person
		kind   backend.ActionName
		amount money.Amount
		want   Decision
	}{
		{"viewer refund", viewer, backend.ActionRefund, amt("1", "RUB"),
			Decision{Denied, "auditor is a viewer: viewers can look but not act"}},
		{"viewer revoke", viewer, backend.ActionRevokeToken, money.Amount{},
			Decision{Denied, "auditor is a viewer: viewers can look but not act"}},
		{"viewer reads", viewer, backend.ReadRefunds, money.Amount{}, Decision{Allowed, "reading needs no approval"}},
		{"supervisor any amount", lead, backend.ActionRefund, amt("99999999", "USD"),
			Decision{Allowed, "supervisors need no approval"}},
		{"limit exactly", desk, backend.ActionRefund, amt("10000", "RUB"),
			Decision{Allowed, "within your limit of 10,000.00 RUB"}},
		{"a kopeck above", desk, backend.ActionRefund, amt("10000.01", "RUB"),
			Decision{NeedsApproval, "above your limit of 10,000.00 RUB: needs approval by a supervisor"}},
		{"lower-case currency", desk, backend.ActionCapture, amt("10000.01", "rub"),
			Decision{NeedsApproval, "above your limit of 10,000.00 RUB: needs approval by a supervisor"}},
		{"star exactly", desk, backend.ActionCancelHold, amt("100", "USD"),
			Decision{Allowed, "within your limit of 100.00 USD"}},
		{"star a cent above", desk, backend.ActionCancelHold, amt("100.01", "USD"),
			Decision{NeedsApproval, "above your limit of 100.00 USD: needs approval by a supervisor"}},
		{"zero limit", desk, backend.ActionRefund, amt("1", "KZT"),
			Decision{NeedsApproval, "every amount in KZT needs approval by a supervisor"}},
		{"no limit for the currency", rubOnly, backend.ActionRefund, amt("1", "USD"),
			Decision{NeedsApproval, "you have no limit for USD: needs approval by a supervisor"}},
		{"no limits at all", noLimits, backend.ActionRefund, amt("0.01", "RUB"),
			Decision{NeedsApproval, "you have no limits: every amount needs approval by a supervisor"}},
		{"payment link counts", desk, backend.ActionCreateInvoice, amt("10000.01", "RUB"),
			Decision{NeedsApproval, "above your limit of 10,000.00 RUB: needs approval by a supervisor"}},
		{"sticker counts", desk, backend.ActionCreateSticker, amt("150", "EUR"),
			Decision{NeedsApproval, "above your limit of 100.00 EUR: needs approval by a supervisor"}},
		{"refund without amount", desk, backend.ActionRefund, money.Amount{},
			Decision{NeedsApproval, "the amount is not known: needs approval by a supervisor"}},
		{"revoke", noLimits, backend.ActionRevokeToken, money.Amount{},
			Decision{Allowed, "this moves no money: no approval needed"}},
		{"toggle sticker", noLimits, backend.ActionToggleSticker, money.Amount{},
			Decision{Allowed, "this moves no money: no approval needed"}},
		{"card-saving link", noLimits, backend.ActionCreateTokenization, money.Amount{},
			Decision{Allowed, "this moves no money: no approval needed"}},
		{"unknown kind within", desk, "test_tip_link", amt("5", "RUB"),
			Decision{Allowed, "within your limit of 10,000.00 RUB"}},
		{"unknown kind, no amount", desk, "test_tip_link", money.Amount{},
			Decision{NeedsApproval, "the amount is not known: needs approval by a supervisor"}},
		{"no role", Person{Name: "x"}, backend.ActionRevokeToken, money.Amount{},
			Decision{Denied, "x has no role: nobody without a role acts"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.p.Decide(c.kind, c.amount); got != c.want {
				t.Errorf("Decide = %v %q, want %v %q", got.Verdict, got.Reason, c.want.Verdict, c.want.Reason)
			}
		})
	}
}

func TestCanApprove(t *testing.T) {
	cases := []struct {
		p         Person
		requester string
		ok        bool
		why       string
	}{
		{Person{Name: "lead", Role: Supervisor}, "desk-1", true, ""},
		{Person{Name: "lead", Role: Supervisor}, "lead", false, "nobody approves their own request: another supervisor must"},
		{Person{Name: "desk-2", Role: Support}, "desk-1", false, "only supervisors approve requests: desk-2 is a support person"},
		{Person{Name: "auditor", Role: Viewer}, "desk-1", false, "only supervisors approve requests: auditor is a viewer"},
	}
	for _, c := range cases {
		ok, why := c.p.CanApprove(c.requester)
		if ok != c.ok || why != c.why {
			t.Errorf("%s.CanApprove(%s) = %v %q, want %v %q", c.p.Name, c.requester, ok, why, c.ok, c.why)
		}
	}
}
