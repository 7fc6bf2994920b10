// Package sandbox is paydash's embedded payment acceptance service: one
// in-memory store, seeded with realistic data, served over real HTTPS on
// loopback with a certificate authority made at start. The product runs on
// it and the tests run against it, so it follows the service's
// documentation and, where that is silent, docs/service.md closely; it
// does not share code with the client (backend/v2), so that a mismatch
// between the two shows in tests.
//
// Files, one job each: model.go (the objects), store.go (the Store and its
// lock; store_lookup.go, store_order.go and store_filters.go its lookups,
// order and v1 filters), cursor.go (paging), requests.go (what the moves
// take), rules.go and rules_*.go (state moves and refusals, one file per
// kind of object), errors.go (typed refusals), testcards.go, clock.go (time
// moving: settler and arrivals), seed.go and seed_*.go (one file per kind
// of object, seed_async.go, seed_chunks.go and seed_wait.go for a seed in
// the background) and seeddata.go, callbacks.go, server.go (Start, Info),
// tls.go, faults.go, idempotency.go, decode.go and decode_*.go, v2wire.go
// (the JSON shapes), v2api.go (the /api/v2 handlers), pages.go; for the
// legacy interface v1api.go (the /api/v1 dispatch; v1api_payments.go and
// v1api_reports.go the operations), v1wire.go (its JSON and XML shapes),
// v1auth.go (signature, nonces, roles), transfers.go (transfers and
// registers) and documents.go.
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
// # The v1 interface
//
// Eleven operations at /api/v1/<operation> (getPayment,
// getPaymentByInvoiceID, listPaymentsFilter, refundPayment, listRefunds,
// confirmPayment, cancelPayment, listDocuments, getDocumentContent,
// listTransfers, getTransferRegister), GET or POST, parameter names in any
// case, over the same store: a payment has the same id in both interfaces,
// a site is a merchant. Logins cashier (Cashier: the three payment reads)
// and accountant (Accountant: everything), random passwords per start,
// both in the one account V1AccountID ("ACC-1"). Checks in order: unknown
// login -6, bad hash -7, reused nonce -14 (nonces kept 24 h of store time per
// login; a badly signed request burns none), role -6. Every answer is HTTP
// 200 with ErrorCode (Message on an error); lists hold the 1,000 newest
// matches and Overflow. Failure codes: unknown payment or invoice -13,
// bad or too large amount -18, a state that does not allow the move -31
// (-15 if CANCELLED), anything else -1 naming the parameter. A payment's
// ErrorCode: its decline reason (TransactionDeclined -10, InsufficientFunds
// -19, ThreeDSecureFailed -25, ...), or the `error` given to cancelPayment.
//
// Transfers: per site and currency, one per settlement period with
// settled operations (payments + captured amount, successful refunds -
// amount, by settlement time), made 6 h after the period ends (plus a few
// minutes per site and currency). Periods are UTC days; site 1001 was settled
// monthly before the month the store was made in (its monthly registers hold
// ~15,000 operations at 100,000 payments) and daily since. A payment's
// TransferAmount is its amount less the commission (1001 2.1%, 1002 2.4%,
// 1003 2.8%, 1004 1.9%, rounded half up to the minor unit); the transfer is
// their sum. Register id = days since 2000-01-01 of the period's start * 32
// + site index * 8 + 4 if monthly + currency index (1002's register of
// 2026-02-28 is 305768; 1001's of February 2026 is 304900); RegisterNumber
// R-1002-20260228, R-1001-202602, R-1003-20260228-EUR. Documents, for each
// site and ended month with operations, made 9 h after it: an acceptance
// report (CSV), a transfers statement (CSV) and an act of services rendered
// (PDF), ids 600000 + months since January 2000 * 16 + site index * 4 +
// kind (1001's of February 2026: 605008, 605009, 605010). Registers and
// documents are derived when asked, never stored, and answer the same every
// time.
//
// # Tolerance and bounds
//
// Tolerant where the real service is, so clients written against it work
// here (each choice is a request in tolerance_test.go):
//
//   - A path with one trailing slash is the path without it, in v2
//     (POST /api/v2/invoices/, GET /api/v2/payments/?merchantId=...,
//     /api/v2/payments/{id}/cancel/) and v1 (/api/v1/getPayment/): served, not
//     redirected, so a POST keeps its body; an Idempotency-Key is the same key
//     with or without the slash.
//   - A decimal sent as a JSON string ("amount": {"value": "11.00"}) is read
//     as the number, in every v2 request with an amount (invoices, payments,
//     refunds, confirm, stickers); the string must hold a JSON number
//     exactly ("+5", ".5", " 5", "1,000.00" are validation_error naming the
//     field) and is then held to the number's rules (the currency's
//     decimals, > 0).
//   - v1 JSON payments carry LastUpdate (the XML name, which some clients
//     read from JSON) beside LastUpdateTime, with the same value, in every
//     answer with a payment (getPayment, getPaymentByInvoiceID, confirm,
//     cancel, listPaymentsFilter). The spec allows new fields.
//   - A v2 refund's create and get answers always carry resultCode (list
//     items still do not, as the service documents them). While the refund
//     is Pending it is "Success": the spec's codes are authorization
//     results, and the refund's was accepted with nothing failed, just as an
//     Authorized payment says "Success" before it is captured; status says
//     whether it is over. An empty or made-up code ("Pending") would break
//     clients that read the code into the spec's list. A refund Rejected
//     later carries its reason (OperationNotAllowed).
//   - A v2 payment list item carries resultCode when the payment has one
//     (not while it is Pending or awaiting confirmation), so a list shows
//     why payments were declined without a read each. The service's
//     documentation does not list it for list items; the spec allows new
//     fields, and paydash reads it when present (docs/service.md).
//
// The paydash client stays strict in what it sends: numbers as numbers, no
// trailing slashes (backend/v2's TestRequestShapes checks every request).
//
// Strict where money is ambiguous. An amount with more decimals than its
// currency's minor unit (ISO 4217, as backend/money's Decimals knows it: 2
// for RUB, USD and EUR, 0 for JPY, 3 for KWD and BHD) is refused in every
// request with an amount: v2 invoices, payments, refunds, confirm and
// stickers are validation_error naming the field ("amount.value 1.001 has 3
// decimals; RUB has at most 2 decimals"), v1 refundPayment and
// confirmPayment ErrorCode -18 naming amount (a v1 amount is judged in the
// payment's currency, from the string as signed, never rewritten). The
// store itself refuses (rules.go, checkMinorUnits), whoever asks. It is the
// value that is judged, not its text: trailing zeros beyond the minor unit
// change nothing (1.000 RUB is 1 RUB, 1500.00 JPY is 1500 JPY) and are
// taken. So every amount the sandbox holds, and every remainder it reports,
// has at most the currency's decimals.
//
// A member given twice in one JSON object,
// at any depth ({"paymentId":"A","paymentId":"B"}, or amount.value twice),
// is validation_error naming it by its path; encoding/json would keep the
// last one silently. A date the store cannot hold (its keys are int64
// nanoseconds: 1677-09-21 to 2262-04-11) is refused, never wrapped into
// another date: v2 start, end and invoice.expires are validation_error
// naming the parameter; v1 periodFrom and periodTo (whose day must end in
// range too) are ErrorCode -1 naming it, in every operation with a period.
//
// Bounded:
//
//   - Idempotency-Key: at most 255 characters (longer: validation_error).
//     Only an answer that created something (2xx) is kept, as its status,
//     content type and body plus SHA-256 digests of the key (with token and
//     route) and of the request as parsed, never the request itself; a
//     refused request is forgotten once answered, so sent again it is served
//     again. At most 100,000 keys are kept, the oldest dropped first, and
//     none longer than 24 h of store time.
//   - The same body is the same request, not the same bytes: two bodies
//     under one key are compared as the handler reads them, so member order,
//     white space, a BOM and members the service ignores make no difference,
//     and an amount is the decimal it holds ({"value":1}, {"value":1.0} and
//     {"value":"1.00"} are one body; 1.5 and 1.51 are two, and the second is
//     idempotency_key_violation).
//   - A replay is the first answer as it was (Stripe's model), marked
//     Idempotent-Replayed: true: a refund replayed after it settled still says
//     Pending, because the replay answers "what did this request do", not
//     "what is the refund now". The client (backend overV2.CheckRefund) reads
//     the refund with a GET after a replay, so it shows the state now.
//   - A v2 list page is bounded in bytes as well as items: it stops before
//     the item that would take it past 4 MiB (holding at least one item), and
//     its cursor continues after the last item sent, so paging yields every
//     item exactly once. A v1 list answer holds the newest matches that fit
//     in 4 MiB and sets Overflow, as at 1,000 items, so the client narrows
//     the period. With the maxima below neither budget is reached by real
//     data; they guard the client's own limits (32 MiB v2, 64 MiB v1), which
//     it reports as "the service's answer is larger than N MiB, more than
//     paydash reads; choose a shorter period", never as a lost answer.
//
// Text members have maximum lengths, in characters, in both interfaces
// (validation_error, or v1 ErrorCode -1, naming the field; the refusal does
// not echo the text):
//
//	invoice.description, sticker description           1,000  (v1 Purpose shows it)
//	invoice.orderNo; v1 invoiceID                          64
//	invoice.params                                         50 members; names 40; each value 500 as JSON
//	customer.email                                        254  (RFC 5321's limit)
//	customer.phone                                         32
//	customer.ip                                            45  (the longest IPv6 text form)
//	customer.account                                      255
//	every returnUrl, callbackUrl, threeDSCompleteUrl    2,048
//	tokenization.purpose, token purpose                   255
//	sticker paymentPurpose                                210  (a bank payment order's purpose field)
//	sticker productCode                                    64
//	merchantId, paymentId, token.id, stickerId             64
//	v1 paymentID, siteAlias, accountID, documentID,
//	  registerID                                           64
//	v1 externalID                                         255
//	v1 nonce                                              255  (the service's limit)
//
// Members checked against a fixed form (card number, expiry, cvc, codes,
// enumerations) are bounded by that check; members the sandbox neither keeps
// nor checks (device, dsrp) only by the 1 MiB body.
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
// # Faults
//
// Options.Faults (paydash sandbox --faults, e.g.
// latency=200ms,error=0.05,drop=0.01,malformed=0.01), changed at run time
// by Server.SetFaults, apply to /api/ requests only, drawn from a source
// seeded with Options.Seed. They make a money action's dangerous window
// real: half of the latency passes before a request is served (a client
// gone by then is not served); a request that has arrived is then served in
// full whatever the client does, and its answer is held back for the other
// half. A drop closes the connection without an answer, in about half of
// the cases before the request is served and in the others after (the
// refund is made, its answer lost). An error answers 500 internal_error
// without serving; a malformed answer is served, then cut in half.
//
// # Callbacks
//
// Every payment status change (the creation result, complete, confirm,
// cancel, settle or expiry by time) POSTs the documented notification body
// to protocol.callbackUrl (or the sticker's callbackUrl); every token
// status change after creation POSTs {id, status, title, expires} to the
// token's callbackUrl. Any 2xx is success; otherwise the sandbox retries 5
// times, waiting CallbackBackoff, then twice that, and so on. It delivers
// only to loopback hosts (127.0.0.0/8, ::1, localhost) and logs and drops
// everything else: the seeded data's example.com-style addresses are never
// contacted. Every delivery has an id (cb_1, cb_2, …; its retries keep it),
// in every log line about it; the last notification of each of the 10,000
// objects most recently notified is kept, for a resend.
//
// # Serving during the seed
//
// A seed of more than 10,000 payments is made newest day first: the store
// serves once the newest days exist and makes the rest in the background;
// a read that reaches days not made yet waits for them, so every answer is
// the one the full seed gives, and writes wait for the whole seed (details
// in seed_async.go). The seed stops when Start's context ends.
//
// # Control of time and state (testers)
//
// Only in the sandbox and only with the full v2 token (401 without one, 403
// with the read-only one), outside /api/ (no faults):
//
//	POST /_sandbox/clock/advance   {"duration":"1h"} (a Go duration or a number of seconds,
//	                               more than 0, at most 366 days): the clock moves on and
//	                               everything due meanwhile happens now, in due order, each
//	                               move stamped with its own due time -> {"now", "events"}
//	POST /_sandbox/reset           back to the seed: the same data and ids as at start, the
//	                               clock back to real time; kept idempotency keys, v1 nonces,
//	                               callbacks under way and scenarios are forgotten
//	                               -> {"reset", "now"}
//	POST /_sandbox/callbacks/{id}/resend
//	                               the last callback of payment or token {id} again, as a new
//	                               delivery -> 202 {"deliveryId", "id", "url"}; 404 if none
//	POST /_sandbox/scenario        {"kind":"decline_spike","resultCode":"IssuerUnavailable",
//	                               "rate":0.6,"duration":"30m"}: something goes wrong from now
//	                               on, for duration (more than 0, at most 7 days), to a share
//	                               rate (more than 0, at most 1; default 1) of what is made
//	                               meanwhile -> {"scenario": {"kind", "from", "until", "rate",
//	                               "resultCode"}}
//	GET  /_sandbox/scenario        the scenarios not yet over -> {"scenarios": [...]}
//
// The scenarios (scenario.go), by kind:
//
//   - decline_spike: a payment begun in the window (made by the API or an
//     arrival, or an invoice paid on its page) is Rejected at once with
//     resultCode (default TransactionDeclined; any result code of the
//     sandbox but Success) and its message, whatever its card would do;
//   - confirmation_stall: a payment begun in the window that asks for a
//     confirmation (3-D Secure, SmsOtp, SBP) stays in Confirmation for good:
//     completing it answers 200 with the payment unchanged;
//   - refund_delay: a refund made in the window stays Pending until the
//     window ends (or its usual settle time, if later), and settles at the
//     first due check after that (an advance past the end settles it).
//
// Which payments or refunds a scenario picks depends only on the store's
// seed, the scenario's number since the seed or last reset, and the
// object's id: the same on every run. An unknown kind, a rate or duration
// out of range, a resultCode the sandbox does not know or one given with
// another kind is a validation_error listing every problem. Several
// scenarios may be active at once (the first decline_spike that picks a
// payment gives its code); reset forgets them all. Nothing made before a
// scenario is set changes.
//
// Every answer, on every path, is dated (Date) by the store clock these
// move, and says Paydash-Sandbox: 1, the sandbox's own word that no real
// money is at stake (announce.go).
//
// # Request log
//
// With a logger that takes Info (paydash sandbox -v), one line per request:
// method, path, status, duration, bytes and the Idempotency-Key (cut,
// cleaned); outcome=dropped for a connection closed by a fault. Never a
// header but the key, never a v1 query string (login, nonce, hash), never a
// query parameter named like a credential. Every move the clock makes is
// logged too (kind, id, from -> to), and every callback delivery.
package sandbox
