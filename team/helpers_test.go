package team

import (
	"crypto/ed25519"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

// testKey is a fixed ed25519 key, the n-th, and its authorized_keys line.
func testKey(t *testing.T, n byte) (ssh.PublicKey, string) {
	t.Helper()
	seed := make([]byte, ed25519.SeedSize)
	seed[0] = n
	priv := ed25519.NewKeyFromSeed(seed)
	pub, err := ssh.NewPublicKey(priv.Public())
	if err != nil {
		t.Fatal(err)
	}
	return pub, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub)))
}

// file is a people file with the keys' lines put in for K1, K2, K3.
func file(t *testing.T, text string) []byte {
	t.Helper()
	_, k1 := testKey(t, 1)
	_, k2 := testKey(t, 2)
	_, k3 := testKey(t, 3)
	return []byte(strings.NewReplacer("K1", k1, "K2", k2, "K3", k3).Replace(text))
}
