package graph

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// This file holds a BVGraph encoder for tests only: it writes graphs with
// any parameters and codes so the decoder can be checked beyond the one
// parameter set of cnr-2000. It follows the format description in the
// BVGraph javadoc (it picks the reference with the largest overlap rather
// than WebGraph's cost-based choice, which the format leaves free).

type bitWriter struct {
	buf  []byte
	cur  byte
	fill uint // bits in cur
	pos  uint64
}

func (w *bitWriter) bit(b uint64) {
	w.cur = w.cur<<1 | byte(b&1)
	w.fill++
	w.pos++
	if w.fill == 8 {
		w.buf = append(w.buf, w.cur)
		w.cur, w.fill = 0, 0
	}
}

func (w *bitWriter) bits(v uint64, k uint) {
	for i := int(k) - 1; i >= 0; i-- {
		w.bit(v >> uint(i))
	}
}

func (w *bitWriter) unary(x uint64) {
	for ; x > 0; x-- {
		w.bit(0)
	}
	w.bit(1)
}

func (w *bitWriter) gamma(x uint64) {
	x++
	msb := uint(63 - bits.LeadingZeros64(x))
	w.unary(uint64(msb))
	w.bits(x, msb)
}

func (w *bitWriter) delta(x uint64) {
	x++
	msb := uint(63 - bits.LeadingZeros64(x))
	w.gamma(uint64(msb))
	w.bits(x, msb)
}

func (w *bitWriter) zeta(x uint64, k uint) {
	x++
	msb := uint(63 - bits.LeadingZeros64(x))
	h := msb / k
	w.unary(uint64(h))
	left := uint64(1) << (h * k)
	if x-left < left {
		w.bits(x-left, h*k+k-1)
	} else {
		w.bits(x, h*k+k)
	}
}

func (w *bitWriter) nibble(x uint64) {
	groups := 1
	for x>>(3*uint(groups)) != 0 {
		groups++
	}
	for g := groups - 1; g >= 0; g-- {
		stop := uint64(0)
		if g == 0 {
			stop = 1
		}
		w.bit(stop)
		w.bits(x>>(3*uint(g)), 3)
	}
}

func (w *bitWriter) code(c bvCode, x uint64, k uint) {
	switch c {
	case codeGamma:
		w.gamma(x)
	case codeDelta:
		w.delta(x)
	case codeUnary:
		w.unary(x)
	case codeZeta:
		w.zeta(x, k)
	default:
		w.nibble(x)
	}
}

func (w *bitWriter) bytes() []byte {
	out := slices.Clone(w.buf)
	if w.fill > 0 {
		out = append(out, w.cur<<(8-w.fill))
	}
	return out
}

func int2nat(x int64) uint64 {
	if x >= 0 {
		return uint64(x) << 1
	}
	return uint64(-x)<<1 - 1
}

// bvEncoding is an encoded graph: the three files' contents.
type bvEncoding struct {
	graph, offsets []byte
	properties     string
}

// bvTestParams are the parameters and codes the test encoder uses.
type bvTestParams struct {
	window, minInterval                                       uint64
	zetaK                                                     uint
	outdegree, reference, blockCount, block, residual, offset bvCode
	flags                                                     string
}

var defaultBVTestParams = bvTestParams{window: 7, minInterval: 4, zetaK: 3, outdegree: codeGamma, reference: codeUnary,
	blockCount: codeGamma, block: codeGamma, residual: codeZeta, offset: codeGamma}

// encodeBV encodes g, whose lists must be sorted without duplicates.
func encodeBV(g *CSR, p bvTestParams) bvEncoding {
	var w, ow bitWriter
	n := g.N()
	var last uint64
	for x := 0; x < n; x++ {
		ow.code(p.offset, w.pos-last, 0)
		last = w.pos
		s := g.Out(uint32(x))
		w.code(p.outdegree, uint64(len(s)), p.zetaK)
		if len(s) == 0 {
			continue
		}
		in := make(map[uint32]bool, len(s))
		for _, v := range s {
			in[v] = true
		}
		ref, best := 0, 0
		for r := 1; p.window > 0 && r <= int(p.window) && r <= x; r++ {
			k := 0
			for _, v := range g.Out(uint32(x - r)) {
				if in[v] {
					k++
				}
			}
			if k > best {
				ref, best = r, k
			}
		}
		if p.window > 0 {
			w.code(p.reference, uint64(ref), p.zetaK)
		}
		copied := make(map[uint32]bool)
		if ref > 0 {
			var runs []uint64
			copying, run := true, uint64(0)
			for _, v := range g.Out(uint32(x - ref)) {
				if in[v] != copying {
					runs = append(runs, run)
					copying, run = !copying, 0
				}
				run++
				if in[v] {
					copied[v] = true
				}
			}
			runs = append(runs, run)
			runs = runs[:len(runs)-1] // the last run is implied by the parity of the count
			w.code(p.blockCount, uint64(len(runs)), p.zetaK)
			for i, b := range runs {
				if i > 0 {
					b--
				}
				w.code(p.block, b, p.zetaK)
			}
		}
		var extra []uint32
		for _, v := range s {
			if !copied[v] {
				extra = append(extra, v)
			}
		}
		if len(extra) == 0 {
			continue
		}
		var left, length []uint64
		var residuals []uint32
		for i := 0; i < len(extra); {
			j := i + 1
			for j < len(extra) && extra[j] == extra[j-1]+1 {
				j++
			}
			if p.minInterval > 0 && uint64(j-i) >= p.minInterval {
				left = append(left, uint64(extra[i]))
				length = append(length, uint64(j-i))
			} else {
				residuals = append(residuals, extra[i:j]...)
			}
			i = j
		}
		if p.minInterval > 0 {
			w.gamma(uint64(len(left)))
			next := uint64(0)
			for i := range left {
				if i == 0 {
					w.gamma(int2nat(int64(left[i]) - int64(x)))
				} else {
					w.gamma(left[i] - next - 1)
				}
				w.gamma(length[i] - p.minInterval)
				next = left[i] + length[i]
			}
		}
		for i, r := range residuals {
			if i == 0 {
				w.code(p.residual, int2nat(int64(r)-int64(x)), p.zetaK)
			} else {
				w.code(p.residual, uint64(r-residuals[i-1]-1), p.zetaK)
			}
		}
	}
	ow.code(p.offset, w.pos-last, 0)
	var props strings.Builder
	fmt.Fprintf(&props, "#BVGraph properties\ngraphclass=it.unimi.dsi.webgraph.BVGraph\nversion=0\nnodes=%d\narcs=%d\n", n, g.M())
	fmt.Fprintf(&props, "windowsize=%d\nminintervallength=%d\nzetak=%d\nmaxrefcount=3\ncompressionflags=%s\n", p.window, p.minInterval, p.zetaK, p.flags)
	return bvEncoding{graph: w.bytes(), offsets: ow.bytes(), properties: props.String()}
}
