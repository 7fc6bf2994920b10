package sandbox

import (
	"context"
	rnd "math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
)

// Seeding customers and their cards: in one pass from the generator's
// source, or by blocks from their own sources in a big seed.

// makeCustomers draws n customers from the generator's source, before
// the tokens and stickers.
func (g *generator) makeCustomers(n int) {
	g.customers = make([]*Customer, n)
	g.cards = make([]*Instrument, n)
	for i := range n {
		g.customers[i], g.cards[i] = g.makeCustomer(i < g.domestic)
	}
}

// Sources of the seed: each part draws from its own PCG stream of the seed.
// makeCustomersInBlocks draws n customers in blocks, each from its own
// source, side by side (a seed of more than seedClassicMax payments: the
// result does not depend on how the blocks are scheduled).
func (g *generator) makeCustomersInBlocks(ctx context.Context, n int) error {
	const block = 4096
	g.customers = make([]*Customer, n)
	g.cards = make([]*Instrument, n)
	blocks := (n + block - 1) / block
	var wg sync.WaitGroup
	var next atomic.Int64
	for range min(runtime.GOMAXPROCS(0), 8, blocks) {
		wg.Go(func() {
			for {
				b := int(next.Add(1)) - 1
				if b >= blocks || ctx.Err() != nil {
					return
				}
				bg := *g
				bg.rng = rnd.New(rnd.NewPCG(uint64(g.seed), streamCustomers|uint64(b)))
				for i := b * block; i < min(n, (b+1)*block); i++ {
					g.customers[i], g.cards[i] = bg.makeCustomer(i < g.domestic)
				}
			}
		})
	}
	wg.Wait()
	return ctx.Err()
}

func (g *generator) digits(b []byte, n int) []byte {
	for range n {
		b = append(b, byte('0'+g.rng.IntN(10)))
	}
	return b
}

func (g *generator) makeCustomer(domestic bool) (*Customer, *Instrument) {
	home := russia
	bins, cum := domesticBINs, g.domW
	if !domestic {
		home = abroad[g.rng.IntN(len(abroad))]
		bins, cum = foreignBINs, g.forW
	}
	fi := g.rng.IntN(len(home.first))
	first, last := home.first[fi], home.last[g.rng.IntN(len(home.last))]
	b := make([]byte, 0, 40)
	b = append(b, first[0], '.')
	b = append(b, last...)
	if domestic && fi >= 10 { // the second half of the Russian first names are women's
		b = append(b, 'a')
	}
	if g.rng.IntN(2) == 0 {
		b = strconv.AppendInt(b, int64(70+g.rng.IntN(35))%100, 10)
	}
	b = append(b, '@')
	b = append(b, home.domains[g.rng.IntN(len(home.domains))]...)
	c := &Customer{Email: string(b)}

	b = b[:0]
	if domestic {
		b = append(b, "79"...)
		b = g.digits(b, 9)
	} else {
		b = append(b, home.phone...)
		b = g.digits(b, 12-len(home.phone))
	}
	c.Phone = string(b)

	b = b[:0]
	if domestic {
		b = append(b, ruIPPrefixes[g.rng.IntN(len(ruIPPrefixes))]...)
	} else {
		b = append(b, home.ip...)
	}
	b = strconv.AppendInt(b, int64(g.rng.IntN(256)), 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, int64(1+g.rng.IntN(254)), 10)
	c.IP = string(b)

	b = append(b[:0], "cl-"...)
	c.Account = string(g.digits(b, 7))

	bin := bins[g.pick(cum)]
	b = append(b[:0], bin.bin...)
	b = append(b, "******"...)
	b = g.digits(b, 4)
	return c, &Instrument{Method: MethodBankCard, Title: string(b), Card: bin.info}
}
