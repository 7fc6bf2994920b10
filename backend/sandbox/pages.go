package sandbox

import (
	"html/template"
	"net/http"
)

// Tiny pages behind the addresses the API hands out, so that a link opened
// from the dashboard shows something: the payment page of an invoice (with
// a button that pays it with the approving test card), the tokenization
// page, and a stand-in 3-D Secure page. Not part of the service's API.

var pageTmpl = template.Must(template.New("page").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>paydash sandbox</title>
<style>body{font-family:sans-serif;max-width:36em;margin:3em auto}</style></head>
<body><h1>{{.Title}}</h1>{{range .Lines}}<p>{{.}}</p>{{end}}
{{if .Action}}<form method="post" action="{{.Action}}"><button>{{.Button}}</button></form>{{end}}
</body></html>`))

type page struct {
	Title          string
	Lines          []string
	Action, Button string
}

func renderPage(w http.ResponseWriter, status int, p page) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = pageTmpl.Execute(w, p)
}

func (s *Server) pageRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /pay/{id}", func(w http.ResponseWriter, r *http.Request) {
		p, err := s.store.GetPayment(r.PathValue("id"))
		if err != nil {
			renderPage(w, http.StatusNotFound, page{Title: "Payment not found"})
			return
		}
		pg := page{Title: "Payment " + p.ID, Lines: []string{p.Invoice.Description, p.Amount.String(), "Status: " + string(p.Status)}}
		if p.IsInvoice && p.Status == PaymentPending {
			pg.Action, pg.Button = "/pay/"+p.ID, "Pay with test card 4111 1111 1111 1111"
		}
		renderPage(w, http.StatusOK, pg)
	})
	mux.HandleFunc("POST /pay/{id}", func(w http.ResponseWriter, r *http.Request) {
		p, err := s.store.PayInvoice(r.PathValue("id"), "4111111111111111")
		if err != nil {
			renderPage(w, http.StatusConflict, page{Title: "Not paid", Lines: []string{err.Error()}})
			return
		}
		renderPage(w, http.StatusOK, page{Title: "Payment " + p.ID, Lines: []string{"Status: " + string(p.Status)}})
	})
	mux.HandleFunc("GET /tokenize/{id}", func(w http.ResponseWriter, r *http.Request) {
		t, err := s.store.GetPaymentToken(r.PathValue("id"))
		if err != nil {
			renderPage(w, http.StatusNotFound, page{Title: "Token not found"})
			return
		}
		renderPage(w, http.StatusOK, page{Title: "Save a card", Lines: []string{t.Purpose, "Token status: " + string(t.Status)}})
	})
	mux.HandleFunc("GET /acs/", func(w http.ResponseWriter, r *http.Request) {
		renderPage(w, http.StatusOK, page{Title: "Sandbox 3-D Secure", Lines: []string{
			"Complete the payment with PUT /api/v2/payments/{id}/complete: code 123456 for SmsOtp, cres Y or N for a challenge, any PARes for 3-D Secure 1."}})
	})
}
