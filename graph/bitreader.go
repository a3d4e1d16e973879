package graph

import (
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
)

// bitReader reads a bit stream most significant bit first, the order of
// WebGraph's InputBitStream (BVGraph format version 0), from any reader
// through a fixed buffer, so a stream of any size costs O(buffer) memory.
type bitReader struct {
	r    io.Reader
	buf  []byte
	i, n int    // buf[i:n] holds bytes not yet moved into word
	word uint64 // unread bits, the next one at bit 63; bits below fill are 0
	fill uint   // valid bits in word
	pos  uint64 // bits consumed
	err  error  // sticky read error or io.EOF
}

var (
	errBitsEOF     = errors.New("bit stream ends inside a code")
	errCodeTooLong = errors.New("code longer than 64 bits")
)

func newBitReader(r io.Reader, size int) *bitReader {
	return &bitReader{r: r, buf: make([]byte, size)}
}

// load refills buf; it reports whether any byte is available.
func (b *bitReader) load() bool {
	if b.err != nil {
		return false
	}
	k, err := io.ReadFull(b.r, b.buf)
	b.i, b.n = 0, k
	if err == io.ErrUnexpectedEOF {
		err = io.EOF
	}
	b.err = err
	return k > 0
}

// refill tops word up to at least 57 valid bits, or to what is left.
func (b *bitReader) refill() {
	if b.n-b.i >= 8 && b.fill <= 56 {
		k := (64 - b.fill) / 8 // whole bytes that fit
		v := binary.BigEndian.Uint64(b.buf[b.i:])
		if k < 8 {
			v = v >> (64 - 8*k) << (64 - 8*k)
		}
		b.word |= v >> b.fill
		b.fill += 8 * k
		b.i += int(k)
		return
	}
	for b.fill <= 56 {
		if b.i == b.n && !b.load() {
			return
		}
		b.word |= uint64(b.buf[b.i]) << (56 - b.fill)
		b.i++
		b.fill += 8
	}
}

// ioErr returns the read error that stopped the stream, or errBitsEOF.
func (b *bitReader) ioErr() error {
	if b.err != nil && b.err != io.EOF {
		return b.err
	}
	return errBitsEOF
}

// bits reads k ≤ 64 bits as an unsigned number.
func (b *bitReader) bits(k uint) (uint64, error) {
	if k == 0 {
		return 0, nil
	}
	if k > 56 {
		hi, err := b.bits(k - 32)
		if err != nil {
			return 0, err
		}
		lo, err := b.bits(32)
		return hi<<32 | lo, err
	}
	if b.fill < k {
		b.refill()
		if b.fill < k {
			return 0, b.ioErr()
		}
	}
	v := b.word >> (64 - k)
	b.word <<= k
	b.fill -= k
	b.pos += uint64(k)
	return v, nil
}

// unary reads x zeros followed by a one and returns x (WebGraph's unary
// code). A long run of zeros costs time linear in its length, like any
// other input; callers bound the value.
func (b *bitReader) unary() (uint64, error) {
	var z uint64
	for {
		if b.fill == 0 {
			b.refill()
			if b.fill == 0 {
				return 0, b.ioErr()
			}
		}
		lz := uint(bits.LeadingZeros64(b.word))
		if lz < b.fill {
			b.word <<= lz + 1
			b.fill -= lz + 1
			b.pos += uint64(lz) + 1
			return z + uint64(lz), nil
		}
		z += uint64(b.fill)
		b.pos += uint64(b.fill)
		b.word, b.fill = 0, 0
	}
}

// gamma reads an Elias γ code: unary(msb) then the msb low bits of x+1.
func (b *bitReader) gamma() (uint64, error) {
	msb, err := b.unary()
	if err != nil {
		return 0, err
	}
	return b.afterMSB(msb)
}

// delta reads an Elias δ code: γ(msb) then the msb low bits of x+1.
func (b *bitReader) delta() (uint64, error) {
	msb, err := b.gamma()
	if err != nil {
		return 0, err
	}
	return b.afterMSB(msb)
}

func (b *bitReader) afterMSB(msb uint64) (uint64, error) {
	if msb > 63 {
		return 0, errCodeTooLong
	}
	low, err := b.bits(uint(msb))
	if err != nil {
		return 0, err
	}
	return (1<<msb | low) - 1, nil
}

// zeta reads a ζ_k code (Boldi and Vigna, "Codes for the World Wide Web",
// Internet Math. 2005): unary(h), then x+1 in [2^hk, 2^(h+1)k) written in
// minimal binary with hk+k-1 or hk+k bits.
func (b *bitReader) zeta(k uint) (uint64, error) {
	h, err := b.unary()
	if err != nil {
		return 0, err
	}
	if h > 63 || h*uint64(k)+uint64(k) > 63 {
		return 0, errCodeTooLong
	}
	hk := uint(h) * k
	left := uint64(1) << hk
	m, err := b.bits(hk + k - 1)
	if err != nil {
		return 0, err
	}
	if m < left {
		return m + left - 1, nil
	}
	bit, err := b.bits(1)
	if err != nil {
		return 0, err
	}
	return m<<1 + bit - 1, nil
}

// nibble reads a variable-length nibble code: groups of a stop bit (1 on
// the last group) and three value bits, most significant group first.
func (b *bitReader) nibble() (uint64, error) {
	var x uint64
	for i := 0; ; i++ {
		if i == 21 {
			return 0, errCodeTooLong
		}
		g, err := b.bits(4)
		if err != nil {
			return 0, err
		}
		x = x<<3 | g&7
		if g&8 != 0 {
			return x, nil
		}
	}
}
