package storage

import (
	"hash/maphash"
	"math/bits"

	"github.com/seedcrawl/seedcrawl/internal/mix"
)

// seenFilter is a Bloom filter of every URL the db holds or has interned,
// kept only while that is all URLs this process interned: the db had none
// when it was opened (a first crawl). A URL the filter has not seen is new
// without a search of the urls bucket, which on a first crawl is the
// answer for most of a page's links that miss the caches, and costs a
// B+tree descent each. A URL it may have seen (false positives about 1%)
// is looked up as before, so the filter changes no answer, only its cost.
//
// The filter grows in parts, each twice the size of the one before; a URL
// goes into the last part and is looked for in all. Each part is a blocked
// Bloom filter: a URL sets 7 bits in one 512-bit block (one cache line),
// about 10 bits per URL, a false positive rate near 1% per full part (a
// URL is looked for in every part, so up to about 1% times the number of
// parts, 7 at most). Memory is about 1.25 bytes per URL, plus the unused
// room of the last part (at most as much again): at most maxSeen URLs in
// about 80 MiB. Past maxSeen URLs the filter is dropped and every miss is
// looked up again.
type seenFilter struct {
	seed  maphash.Seed
	parts []seenPart
}

type seenPart struct {
	blocks [][8]uint64
	keys   int // URLs added
	room   int // URLs it takes at about 10 bits each
}

const (
	// seenFirst is the URLs the first part takes (1.25 MiB).
	seenFirst = 1 << 20
	// maxSeen bounds the URLs the filter's parts take: 1 + 2 + … + 32 Mi
	// URLs, about 80 MiB.
	maxSeen = 1 << 26
	// seenBitsPerKey is the filter's bits per URL.
	seenBitsPerKey = 10
)

func newSeenFilter() *seenFilter {
	f := &seenFilter{seed: maphash.MakeSeed()}
	f.grow(seenFirst)
	return f
}

func (f *seenFilter) grow(room int) {
	n := max(1, room*seenBitsPerKey/512)
	f.parts = append(f.parts, seenPart{blocks: make([][8]uint64, n), room: room})
}

// probe returns the block index (scaled to n blocks) and the 7 bit
// positions, 9 bits each, of hash h.
func probe(h uint64, n int) (block int, bitsOf uint64) {
	hi, _ := bits.Mul64(h, uint64(n))
	return int(hi), mix.Finalize(h)
}

func (p *seenPart) has(h uint64) bool {
	i, b := probe(h, len(p.blocks))
	blk := &p.blocks[i]
	for range 7 {
		bit := b & 511
		if blk[bit>>6]&(1<<(bit&63)) == 0 {
			return false
		}
		b >>= 9
	}
	return true
}

func (p *seenPart) add(h uint64) {
	i, b := probe(h, len(p.blocks))
	blk := &p.blocks[i]
	for range 7 {
		bit := b & 511
		blk[bit>>6] |= 1 << (bit & 63)
		b >>= 9
	}
	p.keys++
}

// mayHave reports whether u may have been added; false is certain.
func (f *seenFilter) mayHave(u string) bool {
	h := maphash.String(f.seed, u)
	for i := range f.parts {
		if f.parts[i].has(h) {
			return true
		}
	}
	return false
}

// add notes u. It reports false when the filter is full (maxSeen URLs):
// the caller then drops it.
func (f *seenFilter) add(u string) bool {
	last := &f.parts[len(f.parts)-1]
	if last.keys >= last.room {
		total := 0
		for _, p := range f.parts {
			total += p.room
		}
		if total+2*last.room > maxSeen {
			return false
		}
		f.grow(2 * last.room)
		last = &f.parts[len(f.parts)-1]
	}
	last.add(maphash.String(f.seed, u))
	return true
}
