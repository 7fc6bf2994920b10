package sandbox

import (
	"encoding/base64"
	"fmt"
	rnd "math/rand/v2"
	"strconv"

	"paydash/backend/money"
)

// SBP payloads look like the links of the Russian Faster Payments System:
//
//	https://qr.nspk.ru/AS10003P3RH0LJ2A9ROO038L6NT5RU1M?type=01&bank=100000000111&sum=125000&cur=RUB&crc=AB75
//
// AS... is a static code (a sticker, type=01), AD... a dynamic one made for
// one payment (type=02); sum is in kopecks; crc is a CRC-16/CCITT-FALSE of
// everything before "&crc=", in hex.

const sbpAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

func sbpPayload(rng *rnd.Rand, dynamic bool, amount *money.Amount, bank string) string {
	id := make([]byte, 32)
	typ := "01"
	id[0], id[1] = 'A', 'S'
	if dynamic {
		id[1], typ = 'D', "02"
	}
	for i := 2; i < len(id); i++ {
		id[i] = sbpAlphabet[rng.IntN(len(sbpAlphabet))]
	}
	s := "https://qr.nspk.ru/" + string(id) + "?type=" + typ + "&bank=" + bank
	if amount != nil {
		s += "&sum=" + strconv.FormatInt(int64(amount.Value)/100, 10)
	}
	s += "&cur=RUB"
	return s + "&crc=" + fmt.Sprintf("%04X", crc16(s))
}

// crc16 is CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF).
func crc16(s string) uint16 {
	crc := uint16(0xFFFF)
	for i := 0; i < len(s); i++ {
		crc ^= uint16(s[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// newUUID makes a version-4-shaped id from the store's deterministic source
// (3-D Secure transaction ids); under the write lock.
func (s *Store) newUUID() string {
	a, b := s.rng.Uint64(), s.rng.Uint64()
	a = a&^0xF000 | 0x4000     // version 4
	b = b&^(0xC<<60) | 0x8<<60 // variant 10
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", a>>32, (a>>16)&0xFFFF, a&0xFFFF, b>>48, b&0xFFFFFFFFFFFF)
}

// randomB64 makes n pseudo-random bytes in standard base64 (a PAReq).
func (s *Store) randomB64(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(s.rng.Uint32())
	}
	return base64.StdEncoding.EncodeToString(b)
}

func b64url(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
