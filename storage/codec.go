package storage

import (
	"encoding/binary"
	"errors"
	"math"
	"time"
)

// recordFormat is the first byte of every record value. Decoders accept
// larger formats as long as the fields they know come first.
const recordFormat = 1

// errShort is wrapped into ErrCorrupt by callers that know the key.
var errShort = errors.New("record truncated")

// enc appends fields to a byte slice.
type enc struct{ b []byte }

func (e *enc) u8(v uint8)          { e.b = append(e.b, v) }
func (e *enc) uv(v uint64)         { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) iv(v int64)          { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) f64(v float64)       { e.b = binary.BigEndian.AppendUint64(e.b, math.Float64bits(v)) }
func (e *enc) str(s string)        { e.uv(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) bytes(p []byte)      { e.uv(uint64(len(p))); e.b = append(e.b, p...) }
func (e *enc) raw(p []byte)        { e.b = append(e.b, p...) }
func (e *enc) dur(d time.Duration) { e.iv(int64(d)) }

// id encodes a page id that may be NoPage as id+1, NoPage as 0.
func (e *enc) id(v uint64) { e.uv(v + 1) }

func (e *enc) time(t time.Time) {
	if t.IsZero() {
		e.iv(0)
		return
	}
	e.iv(t.UnixNano())
}

// dec reads fields; the first error sticks and later reads return zeros.
// A read at the very end of the value returns zero without error, so a
// record written before a trailing field was added still decodes (the new
// field is zero); a field cut in the middle is errShort.
type dec struct {
	b   []byte
	err error
}

func (d *dec) fail() {
	if d.err == nil {
		d.err = errShort
	}
}

func (d *dec) u8() uint8 {
	if len(d.b) < 1 {
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *dec) uv() uint64 {
	if len(d.b) == 0 {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

// iv reads a signed varint: binary.Varint's zigzag encoding over uv.
func (d *dec) iv() int64 {
	u := d.uv()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

func (d *dec) f64() float64 {
	if len(d.b) == 0 {
		return 0
	}
	if len(d.b) < 8 {
		d.fail()
		d.b = nil
		return 0
	}
	v := math.Float64frombits(binary.BigEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

// rawN returns the next n bytes, aliasing the value.
func (d *dec) rawN(n uint64) []byte {
	if uint64(len(d.b)) < n {
		d.fail()
		d.b = nil
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

// view returns a length-prefixed byte string, aliasing the value.
func (d *dec) view() []byte {
	if len(d.b) == 0 {
		return nil
	}
	return d.rawN(d.uv())
}

func (d *dec) str() string {
	v := d.view()
	if len(v) == 0 {
		return ""
	}
	return string(v)
}

func (d *dec) bytes() []byte {
	v := d.view()
	if v == nil {
		return nil
	}
	return append([]byte(nil), v...)
}

func (d *dec) skip() { d.view() }

func (d *dec) dur() time.Duration { return time.Duration(d.iv()) }

func (d *dec) id() uint64 { return d.uv() - 1 }

func (d *dec) time() time.Time {
	ns := d.iv()
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns)
}

// Fixed-width big-endian keys.

func u64key(v uint64) []byte { return binary.BigEndian.AppendUint64(make([]byte, 0, 8), v) }

func u32key(v uint32) []byte { return binary.BigEndian.AppendUint32(make([]byte, 0, 4), v) }

// linkKey is src | cycle.
func linkKey(dst []byte, src uint64, cycle uint32) []byte {
	dst = binary.BigEndian.AppendUint64(dst, src)
	return binary.BigEndian.AppendUint32(dst, cycle)
}

// fetchKey is cycle | id.
func fetchKey(dst []byte, cycle uint32, id uint64) []byte {
	dst = binary.BigEndian.AppendUint32(dst, cycle)
	return binary.BigEndian.AppendUint64(dst, id)
}

func getU64(b []byte) uint64 { return binary.BigEndian.Uint64(b) }
func getU32(b []byte) uint32 { return binary.BigEndian.Uint32(b) }

// Page records.

const (
	pageTruncated = 1 << iota
	pageNovel
	pageHasHash
	// pageHashKind: the hash is not HashSHA256, and its kind is the
	// record's trailing byte. Records written before other kinds existed
	// lack both, so their hashes read back as HashSHA256; a trailing field
	// keeps those records, and older builds reading newer ones, decoding.
	pageHashKind
)

func encodePage(dst []byte, p *Page) []byte {
	e := enc{b: dst}
	e.u8(recordFormat)
	e.str(p.URL)
	e.u8(uint8(p.Status))
	e.str(p.Reason)
	e.uv(uint64(p.Depth))
	e.id(p.From)
	e.uv(uint64(p.FirstCycle))
	e.iv(int64(p.Code))
	e.str(p.ContentType)
	e.iv(p.Length)
	var fl uint8
	if p.Truncated {
		fl |= pageTruncated
	}
	if p.Novel {
		fl |= pageNovel
	}
	if !p.Hash.IsZero() {
		fl |= pageHasHash
		if p.Hash.kind != HashSHA256 {
			fl |= pageHashKind
		}
	}
	e.u8(fl)
	if !p.Hash.IsZero() {
		e.raw(p.Hash.sum[:])
	}
	e.str(p.ETag)
	e.str(p.LastModified)
	e.time(p.FetchedAt)
	e.dur(p.Duration)
	e.dur(p.Interval)
	e.uv(uint64(p.Cycle))
	e.uv(uint64(p.Fetches))
	e.uv(uint64(p.Successes))
	e.time(p.ChangedAt)
	if fl&pageHashKind != 0 {
		e.u8(uint8(p.Hash.kind))
	}
	return e.b
}

func decodePage(id uint64, v []byte, p *Page) error {
	d := dec{b: v}
	if d.u8() == 0 {
		return errShort
	}
	*p = Page{ID: id}
	p.URL = d.str()
	p.Status = Status(d.u8())
	p.Reason = d.str()
	p.Depth = uint32(d.uv())
	p.From = d.id()
	p.FirstCycle = uint32(d.uv())
	p.Code = int(d.iv())
	p.ContentType = d.str()
	p.Length = d.iv()
	fl := d.u8()
	p.Truncated = fl&pageTruncated != 0
	p.Novel = fl&pageNovel != 0
	var sum []byte
	if fl&pageHasHash != 0 {
		sum = d.rawN(hashBytes)
	}
	p.ETag = d.str()
	p.LastModified = d.str()
	p.FetchedAt = d.time()
	p.Duration = d.dur()
	p.Interval = d.dur()
	p.Cycle = uint32(d.uv())
	p.Fetches = uint32(d.uv())
	p.Successes = uint32(d.uv())
	p.ChangedAt = d.time()
	if sum != nil {
		kind := HashSHA256
		if fl&pageHashKind != 0 {
			kind = HashKind(d.u8())
		}
		p.Hash = hashFromDisk(kind, sum)
	}
	return d.err
}

// pageURL returns the URL of a page record without decoding the rest; the
// result aliases v.
func pageURL(v []byte) ([]byte, error) {
	d := dec{b: v}
	if d.u8() == 0 {
		return nil, errShort
	}
	u := d.view()
	return u, d.err
}

// pageFlags returns the status and novelty of a page record without
// allocating.
func pageFlags(v []byte) (Status, bool, error) {
	d := dec{b: v}
	if d.u8() == 0 {
		return 0, false, errShort
	}
	d.skip() // URL
	st := Status(d.u8())
	d.skip() // reason
	d.uv()   // depth
	d.uv()   // from
	d.uv()   // first cycle
	d.iv()   // code
	d.skip() // content type
	d.iv()   // length
	fl := d.u8()
	return st, fl&pageNovel != 0, d.err
}

// Link lists.

const linksHaveKinds = 1

func encodeLinks(dst []byte, src uint64, links []Link) []byte {
	e := enc{b: dst}
	kinds := false
	for _, l := range links {
		if l.Kind != LinkA {
			kinds = true
			break
		}
	}
	var fl uint8
	if kinds {
		fl |= linksHaveKinds
	}
	e.u8(fl)
	e.uv(uint64(len(links)))
	prev := int64(src)
	for _, l := range links {
		e.iv(int64(l.To) - prev)
		prev = int64(l.To)
	}
	if kinds {
		for _, l := range links {
			e.u8(uint8(l.Kind))
		}
	}
	return e.b
}

// linkCount returns the number of links in an encoded list.
func linkCount(v []byte) (int, error) {
	if len(v) < 1 {
		return 0, errShort
	}
	n, k := binary.Uvarint(v[1:])
	if k <= 0 {
		return 0, errShort
	}
	return int(n), nil
}

// decodeLinks appends the links of an encoded list to dst.
func decodeLinks(dst []Link, src uint64, v []byte) ([]Link, error) {
	d := dec{b: v}
	fl := d.u8()
	n := d.uv()
	if n > uint64(len(v)) {
		return dst, errShort
	}
	start := len(dst)
	prev := int64(src)
	for i := uint64(0); i < n; i++ {
		prev += d.iv()
		dst = append(dst, Link{To: uint64(prev)})
	}
	if fl&linksHaveKinds != 0 {
		ks := d.rawN(n)
		for i := range ks {
			dst[start+i].Kind = LinkKind(ks[i])
		}
	}
	return dst, d.err
}

// decodeTargets appends the targets of an encoded list to dst as uint32
// node ids; ok is false if one does not fit.
func decodeTargets(dst []uint32, src uint64, v []byte) ([]uint32, bool, error) {
	if len(v) < 2 {
		return dst, true, errShort
	}
	b := v[1:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(v)) {
		return dst, true, errShort
	}
	b = b[k:]
	prev := int64(src)
	fits := true
	for i := uint64(0); i < n; i++ {
		var delta int64
		if c := b; len(c) > 0 && c[0] < 0x80 {
			// one-byte varint, the common case for nearby targets
			x := uint64(c[0])
			delta = int64(x>>1) ^ -int64(x&1)
			b = c[1:]
		} else {
			var m int
			delta, m = binary.Varint(b)
			if m <= 0 {
				return dst, fits, errShort
			}
			b = b[m:]
		}
		prev += delta
		if uint64(prev) > math.MaxUint32 {
			fits = false
		}
		dst = append(dst, uint32(prev))
	}
	return dst, fits, nil
}

// Fetch records, frontier entries, hosts and robots: one layout each,
// coded in both directions by rec (codec_rec.go).

func (x *FetchRecord) code(r *rec) {
	recU8(r, &x.Status)
	recIv(r, &x.Code)
	recU8(r, &x.Change)
	r.hash(&x.Hash)
	recIv(r, &x.Length)
	r.time(&x.FetchedAt)
	recIv(r, &x.Duration)
	// Added later: older records end here and decode with both zero.
	r.unixSec(&x.LastModified)
	r.unixSec(&x.Date)
}

func encodeFetch(dst []byte, x *FetchRecord) []byte { return encodeRec(dst, x.code) }

func decodeFetch(cycle uint32, id uint64, v []byte) (FetchRecord, error) {
	x := FetchRecord{Cycle: cycle, ID: id}
	err := decodeRec(v, x.code)
	return x, err
}

func (x *Entry) code(r *rec) {
	r.str(&x.Host)
	r.f64(&x.Prio)
	recUv(r, &x.Seq)
	recUv(r, &x.Depth)
	recUv(r, &x.Attempt)
}

func encodeEntry(dst []byte, x *Entry) []byte { return encodeRec(dst, x.code) }

func decodeEntry(id uint64, v []byte) (Entry, error) {
	x := Entry{ID: id}
	err := decodeRec(v, x.code)
	return x, err
}

func (x *Host) code(r *rec) {
	r.time(&x.ReadyAt)
	r.str(&x.Reason)
	recUv(r, &x.Fetches)
	recUv(r, &x.Successes)
	recUv(r, &x.Errors)
	recUv(r, &x.Bytes)
	r.time(&x.LastFetch)
	recIv(r, &x.LastDuration)
}

func encodeHost(dst []byte, x *Host) []byte { return encodeRec(dst, x.code) }

func decodeHost(name string, v []byte) (Host, error) {
	x := Host{Name: name}
	err := decodeRec(v, x.code)
	return x, err
}

func (x *Robots) code(r *rec) {
	recU8(r, &x.State)
	recIv(r, &x.Code)
	r.bytes(&x.Body)
	r.time(&x.FetchedAt)
	r.time(&x.Expires)
	recUv(r, &x.Failures)
	r.str(&x.Err)
}

func encodeRobots(dst []byte, x *Robots) []byte { return encodeRec(dst, x.code) }

func decodeRobots(v []byte) (Robots, error) {
	var x Robots
	err := decodeRec(v, x.code)
	return x, err
}
