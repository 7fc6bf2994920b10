package transport

import "net/http"

// SandboxHeader is the header with which a paydash sandbox announces itself
// on every answer ("Paydash-Sandbox: 1", backend/sandbox/announce.go): the
// service's own word that no real money is at stake. A service that does
// not send it is taken for a live one.
const SandboxHeader = "Paydash-Sandbox"

// AnnouncesSandbox reports whether an answer's headers carry the sandbox's
// announcement.
func AnnouncesSandbox(h http.Header) bool { return h.Get(SandboxHeader) == "1" }
