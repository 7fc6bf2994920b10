// Package views puts the dashboard's tabs together. Each tab lives in its
// own package (views/payments, views/refunds, views/tokens, views/stickers,
// views/registers) on the part they share, views/tab: the list, the pane,
// the action tracker, the key routing and the stale-answer stamps.
// docs/architecture.md draws the path of a key press through them.
package views

import (
	"paydash/ui"
	"paydash/views/activity"
	"paydash/views/approvals"
	"paydash/views/overview"
	"paydash/views/payments"
	"paydash/views/refunds"
	"paydash/views/registers"
	"paydash/views/stickers"
	"paydash/views/tab"
	"paydash/views/tokens"
)

// Deps is what the tabs need from main.
type Deps = tab.Deps

// NewInFlight is the actions not yet over, shared by the tabs.
func NewInFlight() *tab.InFlight { return tab.NewInFlight() }

// NewPaymentFacts is what the tabs learn of payments, shared by them.
func NewPaymentFacts() *tab.PaymentFacts { return tab.NewPaymentFacts() }

// TeamTabs are the tabs of a dashboard served to a team (paydash serve):
// Tabs, then the Approvals tab (key 6) and the Activity tab (key 7).
// d.Team must be set.
func TeamTabs(d Deps) []ui.Tab { return append(Tabs(d), approvals.New(d), activity.New(d)) }

// Tabs are the dashboard's tabs, in the order of the tab bar: the five
// lists by their keys 1 to 5, then the Overview, whose key 0 comes after
// 9 on a keyboard.
func Tabs(d Deps) []ui.Tab {
	return []ui.Tab{payments.New(d), refunds.New(d), tokens.New(d), stickers.New(d), registers.New(d), overview.New(d)}
}
