// Package sandbox is paydash's embedded payment acceptance service: one
// in-memory store, seeded with realistic data, served over real HTTPS on
// loopback with a certificate authority made at start. The product runs on
// it and the tests run against it, so it follows the spec (shared/spec) and
// the decisions of design §4 closely; it does not share code with the
// client (backend/v2), so that a mismatch between the two shows in tests.
//
// Files, one job each: model.go (the objects), store.go (the Store, its
// lock, indexes and queries), cursor.go (paging), rules.go (state moves and
// refusals), errors.go (typed refusals), testcards.go, clock.go (time
// moving: settler and arrivals), seed.go and seeddata.go, callbacks.go,
// server.go (Start, Info), tls.go, faults.go, idempotency.go, decode.go and
// v2wire.go (the JSON shapes), v2api.go (the /api/v2 handlers), pages.go.
//
// # State rules
//
// Payment: Pending -> Confirmation -> Authorized (dualMode) or Settled;
// Pending/Confirmation -> Rejected; Authorized -confirm(amount <= authorized)->
// Settled, recording the captured amount (v2 then shows the captured amount;
// the store keeps the authorized one, which v1 shows as Amount beside PaymentAmount);
// Authorized -cancel-> Cancelled. Everything else is invalid_operation
// (HTTP 409). Refunds only of Settled payments, in the payment's currency,
// their non-Rejected sum never above the captured amount; a new refund is
// Pending and after SettleDelay becomes Success, or Rejected when its amount
// ends in .13 (e.g. 100.13). Tokens: Created -> Active after confirmation,
// Active -revoke-> Revoked, Declined on failure; a Revoked token used for a
// payment gives payment_token_revoked (422), a blocked one
// payment_token_blocked (422). Stickers: Active <-> Inactive; a cashlink
// payment (paymentData.stickerId) of an Inactive sticker is invalid_operation.
// Invoices: Pending until paid on {baseURL}/pay/{id}; Rejected PaymentExpired
// when invoice.expires passes (default 24 h). A tokenization page token
// (POST /tokenization) becomes Active after SettleDelay.
//
// # Test cards
//
// Direct payments accept only these numbers (anything else, or a number
// failing the Luhn check, is validation_error). An expiry in the past gives
// Rejected ExpiredAccount.
//
//	4111111111111111  Visa        approved at once: Settled (Authorized if dualMode), resultCode Success
//	5555555555554444  Mastercard  approved at once
//	2200000000000004  Mir         approved at once
//	6200000000000005  UnionPay    approved at once
//	4000000000000002  Visa        Rejected TransactionDeclined
//	4000000000009995  Visa        Rejected InsufficientFunds
//	4000000000000077  Visa        Confirmation SmsOtp (maskedPhone); complete with code "123456"
//	                              approves, any other code rejects (ThreeDSecureFailed)
//	4000000000003063  Visa        Confirmation ThreeDSChallenge (acsUrl, creq); complete with
//	                              cres "Y" approves, "N" rejects (ThreeDSecureFailed)
//	4000000000003220  Visa        Confirmation ThreeDSMethod (methodUrl, transactionId); complete
//	                              with threeDSCompInd gives ThreeDSChallenge, then cres as above
//	4000000000000101  Visa        Confirmation ThreeDSv1 (acsUrl, PAReq); complete with any PARes approves
//	4000000000000259  Visa        approved but Pending for SettleDelay, then Settled/Authorized
//
// paymentMethod "sbp" (no card) gives Confirmation External (paymentUrl,
// universalLink, instruction); complete with an empty body approves. A
// payment by an Active token (paymentData.token.id) is approved at once; a
// cashlink payment (paymentData.stickerId) is External like SBP, with the
// sticker's payload as paymentUrl and, if no amount is given, the sticker's
// amount. A complete whose member does not match the confirmation type
// (code for SmsOtp, threeDSCompInd for ThreeDSMethod, cres for
// ThreeDSChallenge, PARes for ThreeDSv1, none for External) is
// validation_error. POST /paymenttokens with an approving card gives a
// Created token with an External confirmation (complete -> Active); with
// 4000000000000002 (or 4000000000009995) a Declined token.
//
// # Callbacks
//
// Every payment status change (the creation result, complete, confirm,
// cancel, settle or expiry by time) POSTs the notification body of spec
// part 6 to protocol.callbackUrl (or the sticker's callbackUrl); every token
// status change after creation POSTs {id, status, title, expires} to the
// token's callbackUrl. Any 2xx is success; otherwise the sandbox retries 5
// times, waiting CallbackBackoff, then twice that, and so on. It delivers
// only to loopback hosts (127.0.0.0/8, ::1, localhost) and logs and drops
// everything else: the seeded data's example.com-style addresses are never
// contacted.
package sandbox
