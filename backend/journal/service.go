package journal

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/url"
	"strings"
)

// Service names the payment service an action was sent to: where (the base
// URL's origin), through which interface, and under which credentials (a
// fingerprint, never the credentials themselves). Every line paydash writes
// carries one, so that at start an action is checked or replayed only
// against the service that received it: two services can hold payments with
// the same ids (two sandboxes of one seed, a test and a live service), and a
// refund replayed on the wrong one would be a second, real refund.
type Service struct {
	// Origin is the base URL's scheme, host and port, lower-case, without
	// a default port: "https://pay.example.com", "https://127.0.0.1:41234".
	Origin string `json:"origin"`
	// Interface is the interface the credentials are for, "v2" or "v1":
	// an action is found out through the interface that carried it.
	Interface string `json:"interface"`
	// Credentials is Fingerprint's: "pbkdf2-sha256:" and 32 hex digits.
	Credentials string `json:"credentials"`
	// Embedded marks the sandbox paydash starts inside itself. It lives
	// and dies with one run, on a port of its own each time, so its
	// actions can never be found out by a later run.
	Embedded bool `json:"embedded,omitempty"`
}

// IsZero reports whether s names no service (a line of an older paydash).
func (s Service) IsZero() bool { return s == Service{} }

// String is the service for people: its origin, and the interface.
func (s Service) String() string {
	if s.IsZero() {
		return "an unnamed service"
	}
	if s.Interface == "" {
		return s.Origin
	}
	return s.Origin + " (" + s.Interface + ")"
}

// NewService is the service at baseURL reached through iface with the given
// credentials (the v2 token; the v1 login and password), embedded when it
// is the sandbox paydash runs inside itself.
func NewService(baseURL, iface string, embedded bool, credentials ...string) Service {
	origin := Origin(baseURL)
	return Service{Origin: origin, Interface: iface, Credentials: Fingerprint(origin, iface, credentials...), Embedded: embedded}
}

// Origin is baseURL's scheme, host and port, lower-case, without the
// scheme's default port; a URL it cannot parse is returned as it is (a
// backend would not have opened with it).
func Origin(baseURL string) string {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || u.Host == "" {
		return baseURL
	}
	scheme := strings.ToLower(u.Scheme)
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	if port != "" {
		host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]" // an IPv6 address
	}
	return scheme + "://" + host
}

// fingerprintDomain is the fixed prefix of every fingerprint's salt: the
// same credentials give unrelated values in any other use of the hash.
const fingerprintDomain = "paydash journal service credentials, v1\x00"

// fingerprintRounds makes each guess at a weak v1 password cost as much as
// 20,000 hashes to whoever reads a journal, while a start spends a few
// milliseconds on it. A v2 token is random and long: no guess reaches it.
const fingerprintRounds = 20_000

// Fingerprint stands for credentials in the journal: PBKDF2-HMAC-SHA256 of
// the credentials (joined by NUL), salted with a fixed prefix, the origin
// and the interface, cut to 128 bits. The same credentials on another
// service give another value, and the value gives the credentials back to
// no one: it tells only whether two lines were sent under the same ones.
func Fingerprint(origin, iface string, credentials ...string) string {
	salt := []byte(fingerprintDomain + origin + "\x00" + iface)
	key, err := pbkdf2.Key(sha256.New, strings.Join(credentials, "\x00"), salt, fingerprintRounds, 16)
	if err != nil {
		// Only parameters a FIPS mode refuses make it fail, and these are
		// not; should it ever, a plain salted SHA-256 still tells services
		// apart and still never holds the secret.
		sum := sha256.Sum256(append(salt, "\x00"+strings.Join(credentials, "\x00")...))
		return "sha256:" + hex.EncodeToString(sum[:16])
	}
	return "pbkdf2-sha256:" + hex.EncodeToString(key)
}
