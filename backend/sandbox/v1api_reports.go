package sandbox

import (
	"bytes"
	"errors"
	"net/http"
	"strconv"
	"time"
)

// The v1 operations on the account's reports: documents, transfers and
// registers (v1api.go dispatches them).

func (s *Server) v1ListDocuments(c *v1Call) {
	v1PeriodList(c, s.store.Documents, renderV1Document,
		func(items []v1Document) *v1XML { return &v1XML{Documents: &v1DocumentsXML{Items: items}} },
		func(items []v1Document) any { return &v1DocumentsJSON{Documents: items} })
}

func (s *Server) v1GetDocumentContent(c *v1Call) {
	id, ok := c.require("documentID")
	if !ok {
		return
	}
	d, body, err := s.store.DocumentContent(id)
	if err != nil {
		c.fail(v1ErrUnknown, "document %s not found", id)
		return
	}
	h := c.w.Header()
	h.Set("Content-Type", d.ContentType)
	h.Set("Content-Disposition", `attachment; filename="`+d.FileName+`"`) // file names are plain ASCII
	h.Set("Content-Length", strconv.Itoa(len(body)))
	c.w.WriteHeader(http.StatusOK)
	_, _ = c.w.Write(body)
}

func (s *Server) v1ListTransfers(c *v1Call) {
	v1PeriodList(c, s.store.Transfers, renderV1Transfer,
		func(items []v1Transfer) *v1XML { return &v1XML{Transfers: &v1TransfersXML{Items: items}} },
		func(items []v1Transfer) any { return &v1TransfersJSON{Transfers: items} })
}

// v1PeriodList answers a list of the account's objects in the call's
// period (documents, transfers): list finds them, render makes each a
// member, and asXML or asJSON wraps the members in the answer.
func v1PeriodList[T, M any](c *v1Call, list func(start, end time.Time) []T, render func(*T) M,
	asXML func([]M) *v1XML, asJSON func([]M) any) {
	if !c.account() {
		return
	}
	start, end, ok := c.period()
	if !ok {
		return
	}
	all := list(start, end)
	items := make([]M, len(all))
	for i := range all {
		items[i] = render(&all[i])
	}
	if c.xml {
		writeV1XML(c.w, asXML(items))
		return
	}
	c.ok(&v1Envelope{Response: asJSON(items)})
}

func (s *Server) v1GetRegister(c *v1Call) {
	id, ok := c.require("registerID")
	if !ok {
		return
	}
	reg, err := s.store.Register(id)
	if err != nil {
		var nf *NotFoundError
		if errors.As(err, &nf) {
			c.fail(v1ErrUnknown, "register %s not found", id)
		} else {
			c.fail(v1ErrUnknown, "%s", err.Error())
		}
		return
	}
	// A register may hold tens of thousands of operations: written by
	// hand, not by reflection (v1wire.go).
	if c.xml {
		var buf bytes.Buffer
		buf.Grow(256 + 400*len(reg.Operations))
		writeRegisterXML(&buf, &reg)
		c.w.Header().Set("Content-Type", "application/xml; charset=utf-8")
		c.w.WriteHeader(http.StatusOK)
		_, _ = c.w.Write(buf.Bytes())
		return
	}
	var buf bytes.Buffer
	buf.Grow(256 + 300*len(reg.Operations))
	writeRegisterJSON(&buf, &reg)
	c.w.Header().Set("Content-Type", "application/json")
	c.w.WriteHeader(http.StatusOK)
	_, _ = c.w.Write(buf.Bytes())
}
