package payments

import (
	"paydash/backend"
	"paydash/backend/textsafe"
)

// Status markers carry the meaning without colour (NO_COLOR): done, waiting
// for something, waiting for the merchant (a hold), ended without money.
func paymentMarker(s backend.PaymentStatus) string {
	switch s {
	case backend.PaymentSettled:
		return "✓"
	case backend.PaymentAuthorized:
		return "!"
	case backend.PaymentPending:
		return "~"
	case backend.PaymentConfirmation:
		return "?"
	case backend.PaymentCancelled:
		return "-"
	case backend.PaymentRejected:
		return "✗"
	}
	return " "
}

func paymentStatusText(s backend.PaymentStatus) string {
	return paymentMarker(s) + " " + textsafe.Clean(string(s))
}
