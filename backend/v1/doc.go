// Package v1 is a typed client of the payment acceptance service's legacy
// interface, /api/v1: signed requests (login, nonce, hash), numeric error
// codes, JSON answers and, for documents, transfers and registers, XML.
//
// # The wire contract
//
// What the service's documentation leaves open is settled as
// docs/service.md says, by the contract the client and the sandbox share:
//
//   - Paths are {baseURL}/api/v1/<operation>. GET operations send their
//     parameters in the query string, POST ones (refundPayment,
//     confirmPayment, cancelPayment) as application/x-www-form-urlencoded.
//     Names are those of the spec's tables (paymentID, invoiceID, siteAlias,
//     accountID, periodFrom, periodTo, state, amount, externalID, error,
//     documentID, registerID, xml), plus login, nonce and hash on every
//     request. An absent optional parameter is not sent, and hashes as "".
//   - The hash is base64 (standard, padded) of the SHA-1 of
//     "login;password;nonce;" followed by the operation's hashed values
//     joined with ";" (see Sign). Hashed orders: getPayment paymentID |
//     getPaymentByInvoiceID invoiceID;siteAlias | listPaymentsFilter
//     accountID;siteAlias;periodFrom;periodTo;invoiceID;state |
//     refundPayment paymentID;amount;externalID | listRefunds
//     accountID;paymentID;periodFrom;periodTo;externalID | confirmPayment
//     paymentID;amount | cancelPayment paymentID;error | listDocuments and
//     listTransfers accountID;periodFrom;periodTo | getDocumentContent
//     documentID | getTransferRegister registerID. xml is never hashed. The
//     server hashes the raw strings received, so "10.50" and "10.5" sign
//     differently: amounts are sent exactly as given (FormatAmount).
//     Examples: "TestLogin;secret;74DF1SM;1" gives
//     v7CUe8IhNnsIGnBNnJKaFGLQ0ro=, and
//     "TestLogin;secret;74DF1SM;43149010;10.50;ORD-1" gives
//     upDXcdOcb0yn30TQa/sQUETf6Fc=.
//   - A nonce is at most 255 characters without ";", fresh for every
//     request, every retry included (NewNonce: 24 random bytes). The service
//     keeps used nonces per login; a reused one is -14. It checks, in order:
//     unknown login -6, bad hash -7, reused nonce -14, role lacks the
//     operation -6.
//   - Every answer is HTTP 200 with an ErrorCode (0: success) and, when it
//     is not 0, a Message; another status is a server failure (*HTTPError).
//     Envelopes: {"ErrorCode":0,"Payment":{...}} for getPayment,
//     getPaymentByInvoiceID, confirmPayment and cancelPayment;
//     {"ErrorCode":0,"Refund":{...}} for refundPayment;
//     {"ErrorCode":0,"Response":{"Overflow":false,"Payments":[...]}} and
//     likewise Refunds, Documents, Transfers; and
//     {"ErrorCode":0,"Response":{"Register":{...}}}. With xml=1 (documents,
//     transfers, registers) the root element is Response holding ErrorCode
//     and the list (<Documents><Document>...) or the register
//     (<Register>...<Operations><Operation>...). getDocumentContent answers
//     the file's bytes with its own Content-Type and a Content-Disposition
//     file name, or the error envelope.
//   - Ids and amounts come as JSON numbers or strings, nullable fields as
//     null; times as yyyy-MM-ddTHH:mm:ss in UTC (fractional seconds and a
//     zone are tolerated). Request dates are yyyy-MM-dd UTC days (Date).
//   - listPaymentsFilter and listRefunds select by the UTC day of creation,
//     both bounds inclusive, newest first, at most 1,000 items with
//     Overflow beyond (PaymentPages and RefundPages narrow).
//   - Roles: Cashier may getPayment, getPaymentByInvoiceID and
//     listPaymentsFilter; Accountant may do all eleven operations.
//
// # Errors
//
// A non-zero ErrorCode is an *Error (Code, the spec's Meaning, the
// service's Message); test it with IsNoAccess, IsBadSignature,
// IsNonceReused, IsNotFound, IsBadAmount, IsRefused. A status other than
// 200 is an *HTTPError (IsServerFailure). A body that is not the answer
// wraps ErrMalformedResponse. Server text in errors is stripped of control
// characters; the password (and the request's hash) never appear in an
// error or in the request log.
//
// # Retries
//
// Only the reads (getPayment, getPaymentByInvoiceID, listPaymentsFilter,
// listRefunds, listDocuments, getDocumentContent, listTransfers,
// getTransferRegister) are repeated, on network failures and statuses other
// than 200, with a fresh nonce and hash each time, exponential backoff with
// jitter and a bound (WithRetries). A read answered -14 is retried too:
// net/http resends a GET on its own, with the same nonce, when a kept-alive
// connection breaks before the answer, and the service may have counted
// the first copy. refundPayment, confirmPayment and
// cancelPayment are never repeated: the service does not recognise a
// repeated one, and externalID is the caller's way to find out whether a
// refund was made.
package v1
