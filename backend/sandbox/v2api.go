package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// The /api/v2 HTTP side: routes, bearer auth, request decoding and answers
// (docs/service.md). Handlers only translate: every rule lives in the Store.

type ctxKey int

const tokenKey ctxKey = 1

func (s *Server) v2Routes() http.Handler {
	mux := http.NewServeMux()
	// Creating POSTs honour Idempotency-Key.
	mux.HandleFunc("POST /api/v2/invoices", s.keyed(s.createInvoice, parsedRequest[invoiceReqIn]))
	mux.HandleFunc("POST /api/v2/payments", s.keyed(s.createPayment, parsedRequest[paymentIn]))
	mux.HandleFunc("POST /api/v2/refunds", s.keyed(s.createRefund, parsedRequest[refundIn]))
	mux.HandleFunc("POST /api/v2/tokenization", s.keyed(s.createTokenization, parsedRequest[tokenizationReqIn]))
	mux.HandleFunc("POST /api/v2/paymenttokens", s.keyed(s.createPaymentToken, parsedRequest[paymentTokenIn]))
	mux.HandleFunc("POST /api/v2/stickers", s.keyed(s.createSticker, parsedRequest[stickerIn]))

	mux.HandleFunc("PUT /api/v2/payments/{id}/complete", s.completePayment)
	mux.HandleFunc("PUT /api/v2/payments/{id}/confirm", s.confirmPayment)
	mux.HandleFunc("PUT /api/v2/payments/{id}/cancel", s.cancelPayment)
	mux.HandleFunc("GET /api/v2/payments/{id}", s.getPayment)
	mux.HandleFunc("GET /api/v2/payments", s.listPayments)
	mux.HandleFunc("GET /api/v2/refunds/{id}", s.getRefund)
	mux.HandleFunc("GET /api/v2/refunds", s.listRefunds)
	mux.HandleFunc("PUT /api/v2/paymenttokens/{id}/complete", s.completePaymentToken)
	mux.HandleFunc("GET /api/v2/paymenttokens/{id}", s.getPaymentToken)
	mux.HandleFunc("PUT /api/v2/paymenttokens/{id}/revoke", s.revokePaymentToken)
	mux.HandleFunc("PUT /api/v2/stickers/{id}", s.updateSticker)
	mux.HandleFunc("GET /api/v2/stickers/{id}", s.getSticker)
	mux.HandleFunc("GET /api/v2/stickers", s.listStickers)
	return trimV2TrailingSlash(s.auth(jsonErrorsFor(mux)))
}

// trimV2TrailingSlash serves a path with one trailing slash as the path
// without it (POST /api/v2/invoices/, GET /api/v2/payments/{id}/): a
// published SDK adds the slash to every call, and the service answers them
// alike. The request is served, not redirected, so a POST keeps its body.
func trimV2TrailingSlash(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; len(p) > len("/api/v2/") && strings.HasSuffix(p, "/") && !strings.HasSuffix(p, "//") {
			u := *r.URL
			u.Path = strings.TrimSuffix(p, "/")
			u.RawPath = strings.TrimSuffix(u.RawPath, "/")
			r2 := new(http.Request)
			*r2 = *r
			r2.URL = &u
			r = r2
		}
		next.ServeHTTP(w, r)
	})
}

// jsonErrorsFor answers an unknown path with a JSON 404 and a known path
// asked with the wrong method with a JSON 405 (ServeMux's own answers are
// plain text).
func jsonErrorsFor(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := mux.Handler(r); pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		var allowed []string
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut} {
			r2 := r.WithContext(r.Context())
			r2.Method = m
			if _, pattern := mux.Handler(r2); pattern != "" {
				allowed = append(allowed, m)
			}
		}
		if len(allowed) > 0 {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			writeJSON(w, http.StatusMethodNotAllowed, wireError{Code: "invalid_operation",
				Message: "method " + r.Method + " is not allowed on " + r.URL.Path + " (allowed: " + strings.Join(allowed, ", ") + ")"})
			return
		}
		notFoundJSON(w, r)
	})
}

func notFoundJSON(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusNotFound, wireError{Code: "invalid_operation", Message: "endpoint " + r.Method + " " + r.URL.Path + " not found"})
}

// auth checks the bearer token: unknown or missing is 401, the read-only
// token on anything but a read is 403 not_authorized.
func (s *Server) auth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token := ""
		if h := r.Header.Get("Authorization"); len(h) > 7 && strings.EqualFold(h[:7], "Bearer ") {
			token = strings.TrimSpace(h[7:])
		}
		switch s.store.V2Access(token) {
		case AccessNone:
			w.Header().Set("WWW-Authenticate", `Bearer realm="paydash sandbox"`)
			writeJSON(w, http.StatusUnauthorized, wireError{Code: "not_authorized", Message: "missing or unknown bearer token"})
			return
		case AccessReadOnly:
			if r.Method != http.MethodGet && r.Method != http.MethodHead {
				writeJSON(w, http.StatusForbidden, wireError{Code: "not_authorized", Message: "this bearer token may only read"})
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), tokenKey, token)))
	})
}

// keyed reads the body once and runs the handler through the idempotency
// store when the request carries an Idempotency-Key; parsed is the request
// as the handler reads it, which two bodies under one key are compared by
// (parsedRequest with the handler's own type).
func (s *Server) keyed(h func(http.ResponseWriter, *http.Request, []byte), parsed func([]byte) []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := readBody(r)
		if err != nil {
			writeJSON(w, http.StatusBadRequest, wireError{Code: "validation_error", Message: "request is not valid", Errors: []string{err.Error()}})
			return
		}
		key := r.Header.Get("Idempotency-Key")
		if key == "" {
			h(w, r, body)
			return
		}
		if len(key) > maxIdempotencyKey {
			badRequest(w, []string{fmt.Sprintf("Idempotency-Key is longer than %d characters", maxIdempotencyKey)})
			return
		}
		token, _ := r.Context().Value(tokenKey).(string)
		route := r.Method + " " + r.URL.Path
		s.idem.do(w, r, token+"\x00"+route+"\x00"+key, func() []byte { return parsed(body) }, func(w http.ResponseWriter) { h(w, r, body) })
	}
}

// --- answers ---

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"code":"internal_error","message":"could not render the answer"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeEmpty is the 200 with an empty body of confirm, cancel, revoke and
// sticker update.
func writeEmpty(w http.ResponseWriter) {
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
}

func badRequest(w http.ResponseWriter, problems []string) {
	writeJSON(w, http.StatusBadRequest, wireError{Code: "validation_error", Message: "request is not valid", Errors: problems})
}

// fail maps a store error to its answer.
func fail(w http.ResponseWriter, err error) {
	var (
		ve  *ValidationError
		nf  *NotFoundError
		iop *InvalidOperationError
		tr  *TokenRevokedError
		tb  *TokenBlockedError
	)
	switch {
	case errors.As(err, &ve):
		badRequest(w, ve.Problems)
	case errors.As(err, &nf):
		writeJSON(w, http.StatusNotFound, wireError{Code: "invalid_operation", Message: nf.Error()})
	case errors.As(err, &iop):
		writeJSON(w, http.StatusConflict, wireError{Code: "invalid_operation", Message: iop.Message})
	case errors.As(err, &tr):
		writeJSON(w, http.StatusUnprocessableEntity, wireError{Code: "payment_token_revoked", Message: tr.Error()})
	case errors.As(err, &tb):
		writeJSON(w, http.StatusUnprocessableEntity, wireError{Code: "payment_token_blocked", Message: tb.Error()})
	default:
		writeJSON(w, http.StatusInternalServerError, wireError{Code: "internal_error", Message: err.Error()})
	}
}

// decodeOptional decodes a body that may be empty; it reports whether
// there was one.
func decodeOptional(w http.ResponseWriter, r *http.Request, v any) (present, ok bool) {
	body, err := readBody(r)
	if err != nil {
		badRequest(w, []string{err.Error()})
		return false, false
	}
	if isBlank(body) {
		return false, true
	}
	if problems := decodeInto(body, v); len(problems) > 0 {
		badRequest(w, problems)
		return true, false
	}
	return true, true
}

// create decodes a create request's body into In and makes the object
// with move: bad input is a 400 listing every problem, a refused move the
// store's error (fail). It reports whether the object was made.
func create[In, Out any](w http.ResponseWriter, body []byte, move func(*In) (Out, error)) (Out, bool) {
	var in In
	if problems := decodeInto(body, &in); len(problems) > 0 {
		badRequest(w, problems)
		var none Out
		return none, false
	}
	out, err := move(&in)
	if err != nil {
		fail(w, err)
		return out, false
	}
	return out, true
}

func (s *Server) paymentAnswer(w http.ResponseWriter, p Payment) {
	var tok *PaymentToken
	if p.TokenID != "" {
		if t, err := s.store.GetPaymentToken(p.TokenID); err == nil {
			tok = &t
		}
	}
	writeJSON(w, http.StatusOK, renderPayment(&p, tok))
}

// --- payments ---

func (s *Server) createInvoice(w http.ResponseWriter, r *http.Request, body []byte) {
	p, ok := create(w, body, func(in *invoiceReqIn) (Payment, error) { return s.store.CreateInvoice(in.request()) })
	if ok {
		writeJSON(w, http.StatusOK, wireInvoiceCreated{PaymentID: p.ID, URL: s.baseURL + "/pay/" + p.ID})
	}
}

func (s *Server) createPayment(w http.ResponseWriter, r *http.Request, body []byte) {
	p, ok := create(w, body, func(in *paymentIn) (Payment, error) { return s.store.CreatePayment(in.request()) })
	if ok {
		s.paymentAnswer(w, p)
	}
}

func (s *Server) completePayment(w http.ResponseWriter, r *http.Request) {
	var in completeIn
	if _, ok := decodeOptional(w, r, &in); !ok {
		return
	}
	p, err := s.store.CompletePayment(r.PathValue("id"), CompleteRequest(in))
	if err != nil {
		fail(w, err)
		return
	}
	s.paymentAnswer(w, p)
}

func (s *Server) confirmPayment(w http.ResponseWriter, r *http.Request) {
	var in confirmIn
	if _, ok := decodeOptional(w, r, &in); !ok {
		return
	}
	var problems []string
	amount, _ := in.Amount.parse("amount", &problems)
	if amount != nil && amount.Currency == "" {
		problems = append(problems, "amount.currency is required")
	}
	if len(problems) > 0 {
		badRequest(w, problems)
		return
	}
	if _, err := s.store.CapturePayment(r.PathValue("id"), amount); err != nil {
		fail(w, err)
		return
	}
	writeEmpty(w)
}

func (s *Server) cancelPayment(w http.ResponseWriter, r *http.Request) {
	if _, err := s.store.CancelPayment(r.PathValue("id")); err != nil {
		fail(w, err)
		return
	}
	writeEmpty(w)
}

func (s *Server) getPayment(w http.ResponseWriter, r *http.Request) {
	p, err := s.store.GetPayment(r.PathValue("id"))
	if err != nil {
		fail(w, err)
		return
	}
	s.paymentAnswer(w, p)
}

// listQuery reads merchantId, start, end and cursor; all but cursor are required.
func (s *Server) listQuery(w http.ResponseWriter, r *http.Request, ranged bool) (ListQuery, bool) {
	q := r.URL.Query()
	lq := ListQuery{MerchantID: q.Get("merchantId"), Cursor: q.Get("cursor")}
	var problems []string
	if lq.MerchantID == "" {
		problems = append(problems, "merchantId is required")
	} else if utf8.RuneCountInString(lq.MerchantID) > maxID {
		problems = append(problems, fmt.Sprintf("merchantId is longer than %d characters", maxID))
	} else if _, ok := s.store.Merchant(lq.MerchantID); !ok {
		problems = append(problems, `merchantId "`+lq.MerchantID+`" is unknown`)
	}
	if ranged {
		lq.Start = dateParam(q.Get("start"), "start", &problems)
		lq.End = dateParam(q.Get("end"), "end", &problems)
		if !lq.Start.IsZero() && !lq.End.IsZero() && lq.Start.After(lq.End) {
			problems = append(problems, "start must not be after end")
		}
	}
	if len(problems) > 0 {
		badRequest(w, problems)
		return lq, false
	}
	return lq, true
}

func dateParam(v, name string, problems *[]string) time.Time {
	if v == "" {
		*problems = append(*problems, name+" is required")
		return time.Time{}
	}
	t, ok := parseDate(v)
	switch {
	case !ok:
		*problems = append(*problems, name+" must be an RFC 3339 date (or yyyy-MM-dd)")
	case !representable(t):
		*problems = append(*problems, name+" is out of range: "+dateRange)
		return time.Time{}
	}
	return t
}

func (s *Server) listPayments(w http.ResponseWriter, r *http.Request) {
	lq, ok := s.listQuery(w, r, true)
	if !ok {
		return
	}
	writePage(w, s.store.ViewPayments, lq, renderPaymentItem,
		func(p *Payment) string { return cursorAfter("payments", lq, true, p) })
}

// --- refunds ---

func (s *Server) createRefund(w http.ResponseWriter, r *http.Request, body []byte) {
	ref, ok := create(w, body, func(in *refundIn) (Refund, error) { return s.store.CreateRefund(in.request()) })
	if ok {
		writeJSON(w, http.StatusOK, renderRefund(&ref, true))
	}
}

func (s *Server) getRefund(w http.ResponseWriter, r *http.Request) {
	ref, err := s.store.GetRefund(r.PathValue("id"))
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, renderRefund(&ref, true))
}

func (s *Server) listRefunds(w http.ResponseWriter, r *http.Request) {
	lq, ok := s.listQuery(w, r, true)
	if !ok {
		return
	}
	writePage(w, s.store.ViewRefunds, lq, func(r *Refund) wireRefund { return renderRefund(r, false) },
		func(r *Refund) string { return cursorAfter("refunds", lq, true, r) })
}

// --- payment tokens ---

func (s *Server) createTokenization(w http.ResponseWriter, r *http.Request, body []byte) {
	t, ok := create(w, body, func(in *tokenizationReqIn) (PaymentToken, error) { return s.store.CreateTokenization(in.request()) })
	if ok {
		writeJSON(w, http.StatusOK, wireTokenizationCreated{TokenID: t.ID, URL: s.baseURL + "/tokenize/" + t.ID})
	}
}

func (s *Server) createPaymentToken(w http.ResponseWriter, r *http.Request, body []byte) {
	t, ok := create(w, body, func(in *paymentTokenIn) (PaymentToken, error) { return s.store.CreatePaymentToken(in.request()) })
	if ok {
		writeJSON(w, http.StatusOK, renderToken(&t))
	}
}

func (s *Server) completePaymentToken(w http.ResponseWriter, r *http.Request) {
	var in completeIn
	if _, ok := decodeOptional(w, r, &in); !ok {
		return
	}
	t, err := s.store.CompletePaymentToken(r.PathValue("id"), CompleteRequest(in))
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, renderToken(&t))
}

func (s *Server) getPaymentToken(w http.ResponseWriter, r *http.Request) {
	t, err := s.store.GetPaymentToken(r.PathValue("id"))
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, renderToken(&t))
}

func (s *Server) revokePaymentToken(w http.ResponseWriter, r *http.Request) {
	if _, err := s.store.RevokePaymentToken(r.PathValue("id")); err != nil {
		fail(w, err)
		return
	}
	writeEmpty(w)
}

// --- stickers ---

func (s *Server) createSticker(w http.ResponseWriter, r *http.Request, body []byte) {
	st, ok := create(w, body, func(in *stickerIn) (Sticker, error) { return s.store.CreateSticker(in.request()) })
	if ok {
		writeJSON(w, http.StatusOK, renderSticker(&st))
	}
}

func (s *Server) updateSticker(w http.ResponseWriter, r *http.Request) {
	var in stickerUpdateIn
	present, ok := decodeOptional(w, r, &in)
	if !ok {
		return
	}
	if !present || in.Active == nil {
		badRequest(w, []string{"active is required"})
		return
	}
	if _, err := s.store.SetStickerActive(r.PathValue("id"), *in.Active); err != nil {
		fail(w, err)
		return
	}
	writeEmpty(w)
}

func (s *Server) getSticker(w http.ResponseWriter, r *http.Request) {
	st, err := s.store.GetSticker(r.PathValue("id"))
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, renderSticker(&st))
}

func (s *Server) listStickers(w http.ResponseWriter, r *http.Request) {
	lq, ok := s.listQuery(w, r, false)
	if !ok {
		return
	}
	writePage(w, s.store.ViewStickers, lq, renderSticker,
		func(st *Sticker) string { return cursorAfter("stickers", lq, false, st) })
}
