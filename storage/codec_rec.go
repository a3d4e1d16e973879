package storage

import "time"

// rec reads or writes the fields of a record through one description of its
// layout, so that a record's encoder and decoder cannot drift apart: a
// record type has one method `code(r *rec)` listing its fields in order, and
// encodeRec / decodeRec run it in either direction. Used for the small
// records (hosts, robots, frontier entries, fetches, runs, cycles); pages
// and link lists, the hot path of a commit, keep hand-written codecs.
type rec struct {
	e    enc
	d    dec
	read bool
}

// encodeRec appends recordFormat and the fields that code writes to dst.
func encodeRec(dst []byte, code func(*rec)) []byte {
	r := rec{e: enc{b: dst}}
	r.e.u8(recordFormat)
	code(&r)
	return r.e.b
}

// decodeRec reads the fields that code lists from v; a missing or zero
// format byte is errShort, and so is a field cut short.
func decodeRec(v []byte, code func(*rec)) error {
	r := rec{d: dec{b: v}, read: true}
	if r.d.u8() == 0 {
		return errShort
	}
	code(&r)
	return r.d.err
}

func (r *rec) str(p *string) {
	if r.read {
		*p = r.d.str()
	} else {
		r.e.str(*p)
	}
}

func (r *rec) bytes(p *[]byte) {
	if r.read {
		*p = r.d.bytes()
	} else {
		r.e.bytes(*p)
	}
}

func (r *rec) f64(p *float64) {
	if r.read {
		*p = r.d.f64()
	} else {
		r.e.f64(*p)
	}
}

func (r *rec) time(p *time.Time) {
	if r.read {
		*p = r.d.time()
	} else {
		r.e.time(*p)
	}
}

// unixSec codes a time to the second (an HTTP date has no finer
// resolution) as a zigzag varint of Unix seconds, 0 for the zero time:
// about 5 bytes where time's nanoseconds take 9. A value that decodes
// outside the range time.Unix handles meaningfully is kept as is; callers
// compare, never trust.
func (r *rec) unixSec(p *time.Time) {
	if r.read {
		if s := r.d.iv(); s != 0 {
			*p = time.Unix(s, 0).UTC()
		} else {
			*p = time.Time{}
		}
		return
	}
	if p.IsZero() {
		r.e.iv(0)
		return
	}
	r.e.iv(p.Unix())
}

// id codes a page id that may be NoPage.
func (r *rec) id(p *uint64) {
	if r.read {
		*p = r.d.id()
	} else {
		r.e.id(*p)
	}
}

// hash codes an optional content hash: its kind (0 for none), then 16
// bytes. Records written before other kinds existed have 1 there, which
// is HashSHA256, and older builds read any non-zero byte as "a hash
// follows", so records of either age decode in both.
func (r *rec) hash(p *Hash) {
	if r.read {
		if k := HashKind(r.d.u8()); k != HashNone {
			*p = hashFromDisk(k, r.d.rawN(hashBytes))
		}
		return
	}
	r.e.u8(uint8(p.kind))
	if !p.IsZero() {
		r.e.raw(p.sum[:])
	}
}

// recList codes a list: its length (see count), then each element by code.
func recList[T any](r *rec, s *[]T, code func(*rec, *T)) {
	if n := r.count(len(*s)); r.read && n > 0 {
		*s = make([]T, n)
	}
	for i := range *s {
		code(r, &(*s)[i])
	}
}

// count codes the length of a list that follows, bounded on read by the
// value's size so a corrupt count cannot make the decoder allocate.
func (r *rec) count(n int) int {
	if !r.read {
		r.e.uv(uint64(n))
		return n
	}
	k := r.d.uv()
	if k > uint64(len(r.d.b)) {
		r.d.fail()
		r.d.b = nil
		return 0
	}
	return int(k)
}

// recU8 codes a one-byte enum.
func recU8[T ~uint8](r *rec, p *T) {
	if r.read {
		*p = T(r.d.u8())
	} else {
		r.e.u8(uint8(*p))
	}
}

// recUv codes an unsigned integer as a uvarint.
func recUv[T ~uint32 | ~uint64](r *rec, p *T) {
	if r.read {
		*p = T(r.d.uv())
	} else {
		r.e.uv(uint64(*p))
	}
}

// recIv codes a signed integer (or a duration) as a zigzag varint.
func recIv[T ~int | ~int64](r *rec, p *T) {
	if r.read {
		*p = T(r.d.iv())
	} else {
		r.e.iv(int64(*p))
	}
}
