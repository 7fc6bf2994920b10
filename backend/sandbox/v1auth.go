package sandbox

import (
	"crypto/sha1"
	"crypto/subtle"
	"encoding/base64"
	"hash/maphash"
	"strings"
	"sync"
	"time"
)

// v1 authentication (docs/service.md): a signed request carries
// login, nonce and hash; the password takes part in the hash only. The
// server checks, in this order: unknown login -> -6; bad hash -> -7; reused
// nonce -> -14; a role without the operation -> -6. A request with a bad
// signature does not burn its nonce.

// v1Signature is base64(SHA-1("login;password;nonce;v1;v2;...")), the
// values being the operation's hashed parameters in order, an absent one
// as an empty string.
func v1Signature(login, password, nonce string, values []string) string {
	h := sha1.New()
	h.Write([]byte(login))
	h.Write([]byte{';'})
	h.Write([]byte(password))
	h.Write([]byte{';'})
	h.Write([]byte(nonce))
	for _, v := range values {
		h.Write([]byte{';'})
		h.Write([]byte(v))
	}
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}

// verifyV1Signature compares a received hash with the one the user's
// password gives, in constant time. values are the raw received strings.
func verifyV1Signature(u V1User, nonce, hash string, values []string) bool {
	want := v1Signature(u.Login, u.Password, nonce, values)
	return subtle.ConstantTimeCompare([]byte(want), []byte(hash)) == 1
}

// maxNonceLen is the service's limit on a nonce.
const maxNonceLen = 255

// checkNonce tells what is wrong with a nonce's form, "" if nothing.
func checkNonce(nonce string) string {
	switch {
	case nonce == "":
		return "nonce is required"
	case len(nonce) > maxNonceLen:
		return "nonce is longer than 255 characters"
	case strings.Contains(nonce, ";"):
		return `nonce must not contain ";"`
	}
	return ""
}

// v1Cashier lists what the Cashier role may do; an Accountant may do all.
var v1Cashier = map[string]bool{"getPayment": true, "getPaymentByInvoiceID": true, "listPaymentsFilter": true}

// v1Allowed reports whether role may run op (its canonical name).
func v1Allowed(role, op string) bool {
	switch role {
	case RoleAccountant:
		return true
	case RoleCashier:
		return v1Cashier[op]
	}
	return false
}

// Nonces are kept per login for nonceTTL of store time, as 64-bit keyed
// hashes (a nonce may be 255 bytes; its hash is 8), at most maxNonces per
// login: past that the oldest are forgotten first, so memory stays bounded
// (about 40 MB per login at the cap) even under a flood of requests.
const (
	nonceTTL  = 24 * time.Hour
	maxNonces = 1 << 19
)

type nonceStore struct {
	mu      sync.Mutex
	now     func() time.Time
	max     int // per login
	seed    maphash.Seed
	byLogin map[string]*nonceSet
}

type nonceSet struct {
	seen  map[uint64]int64 // hash -> when used (unix ns, store time)
	order []nonceEntry     // in order of use; order[head:] are live
	head  int
}

type nonceEntry struct {
	h  uint64
	at int64
}

func newNonceStore(now func() time.Time) *nonceStore {
	return &nonceStore{now: now, max: maxNonces, seed: maphash.MakeSeed(), byLogin: map[string]*nonceSet{}}
}

// use records a nonce of login and reports whether it was fresh (false: it
// was used within nonceTTL).
func (ns *nonceStore) use(login, nonce string) bool {
	h := maphash.String(ns.seed, nonce)
	ns.mu.Lock()
	defer ns.mu.Unlock()
	now := ns.now().UnixNano()
	set := ns.byLogin[login]
	if set == nil {
		set = &nonceSet{seen: map[uint64]int64{}}
		ns.byLogin[login] = set
	}
	set.expire(now - int64(nonceTTL))
	if _, used := set.seen[h]; used {
		return false
	}
	set.seen[h] = now
	set.order = append(set.order, nonceEntry{h: h, at: now})
	for len(set.seen) > ns.max {
		set.drop()
	}
	return true
}

// expire forgets the nonces used before cutoff.
func (set *nonceSet) expire(cutoff int64) {
	for set.head < len(set.order) && set.order[set.head].at < cutoff {
		set.drop()
	}
}

// drop forgets the oldest nonce and compacts the queue now and then.
func (set *nonceSet) drop() {
	e := set.order[set.head]
	if at, ok := set.seen[e.h]; ok && at == e.at {
		delete(set.seen, e.h)
	}
	set.order[set.head] = nonceEntry{}
	set.head++
	if set.head >= 1024 && set.head*2 >= len(set.order) {
		set.order = append(set.order[:0:0], set.order[set.head:]...)
		set.head = 0
	}
}

// len is the number of remembered nonces of login (for tests).
func (ns *nonceStore) len(login string) int {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if set := ns.byLogin[login]; set != nil {
		return len(set.seen)
	}
	return 0
}

// reset forgets every nonce (POST /_sandbox/reset: back to the seed).
func (ns *nonceStore) reset() {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	clear(ns.byLogin)
}
