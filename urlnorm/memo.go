package urlnorm

import (
	"hash/maphash"
	"sync/atomic"
)

// Memo remembers recent resolutions of references, so that the links a
// site repeats on every page (its navigation) are resolved once rather
// than once per page: Base.ResolveBytes looks a reference up by what its
// result depends on, not by the page's whole URL. For the references the
// fast path takes (see fast.go) that is:
//
//   - an absolute "http(s)://..." reference: nothing else;
//   - a network-path reference ("//host/..."): the base's scheme;
//   - an absolute-path reference ("/a/b"): the base's scheme and authority;
//   - a relative-path reference ("a/b", "../c"): those and the base's path
//     up to its last '/';
//   - a reference without a path ("?q", "#f", ""): the whole base.
//
// Only fast-path results are remembered; references the WHATWG parser
// handles are resolved every time.
//
// A Memo is a fixed table of entries slots (two candidate slots per key,
// the older of the two replaced), filled with references resolved a
// second time, holding references, bases and results of at most
// maxMemoPart bytes each: its memory is bounded by entries × (24 + 80 +
// 3 × 512) bytes and is about entries × 250 bytes for real links, plus
// what its user keeps in the entries' Notes. It is safe for concurrent
// use: each slot is an atomic pointer to an entry immutable but for its
// Note.
type Memo struct {
	seed  maphash.Seed
	slots []memoSlot
	mask  uint64
	clock atomic.Uint64 // insertion counter, to tell the older of two slots
	// door holds the hashes of references resolved once, direct-mapped: a
	// reference is remembered the second time it is resolved, so a page
	// of links seen nowhere else (most pages' own links, a hostile page's
	// million) costs no entries and evicts nothing.
	door []atomic.Uint64
}

// memoSlot is a slot of the table: its entry, and that entry's hash beside
// it, so that a lookup reads the entry only when the hash matches (a
// lookup reads two slots, and at least one of them is not its key's).
// The two are stored one after the other, not together: a lookup that
// sees a hash and an entry that do not belong together compares the
// entry itself and misses.
type memoSlot struct {
	e    atomic.Pointer[memoEntry]
	hash atomic.Uint64
}

// memoEntry is one remembered resolution; never modified once published,
// but for its note, which is its user's.
type memoEntry struct {
	hash uint64
	kind byte   // refKind of ref
	ctx  string // the part of the base the result depends on
	ref  string
	url  string
	age  uint64 // Memo.clock at insertion
	note Note
}

// newMemoEntry makes the entry remembering that ref, of kind, resolves
// to url against a base whose part ctx it depends on. Its three strings
// are cut from one copy of them laid end to end (url only once when it is
// ref itself): a lookup compares ctx and ref and its caller then reads url,
// so they share cache lines rather than sit in three scattered
// allocations, one of them the page URL ctx was cut from. It also lets
// that page URL go.
func newMemoEntry(h uint64, kind byte, ctx, ref, url string) *memoEntry {
	if url == ref {
		all := ctx + ref
		e := &memoEntry{hash: h, kind: kind, ctx: all[:len(ctx)], ref: all[len(ctx):]}
		e.url = e.ref
		return e
	}
	all := ctx + ref + url
	n := len(ctx) + len(ref)
	return &memoEntry{hash: h, kind: kind, ctx: all[:len(ctx)], ref: all[len(ctx):n], url: all[n:]}
}

// Note is room a Memo keeps beside each resolution it remembers, for what
// its user works out about the resolved URL (a crawl's scope verdict and
// the URL's page id, say): a link resolved through the Memo again brings
// the same Note (Base.ResolveNoted), so its user finds those facts without
// looking the URL up by its string. A Note starts empty and is forgotten
// with its entry; it is safe for concurrent use. Several entries may
// resolve to one URL, each with its own Note.
type Note struct{ v atomic.Pointer[any] }

// Load returns what the last Store put in n; nil if nothing.
func (n *Note) Load() any {
	if p := n.v.Load(); p != nil {
		return *p
	}
	return nil
}

// Store replaces what n holds with v.
func (n *Note) Store(v any) { n.v.Store(&v) }

// DefaultMemo is the number of entries NewMemo(0) makes: the navigation
// links of several dozen sites, spelt relative to a handful of
// directories each.
const DefaultMemo = 1 << 13

// maxMemoPart bounds the reference, the base part and the result a Memo
// keeps; longer ones are resolved every time.
const maxMemoPart = 512

// NewMemo returns a Memo of entries slots, rounded up to a power of two;
// 0 means DefaultMemo.
func NewMemo(entries int) *Memo {
	if entries <= 0 {
		entries = DefaultMemo
	}
	n := 2
	for n < entries {
		n <<= 1
	}
	return &Memo{seed: maphash.MakeSeed(), slots: make([]memoSlot, n), mask: uint64(n - 1),
		door: make([]atomic.Uint64, n)}
}

// Kinds of reference, by what their resolution depends on.
const (
	refAbsolute = 'a' // has a scheme
	refNetwork  = 'n' // "//host..."
	refRooted   = 'p' // "/path"
	refRelative = 'r' // "path"
	refNoPath   = 'q' // "", "?query", "#fragment"
)

// refKind classifies ref and returns the part of fb its fast-path
// resolution depends on.
func refKind(fb *fastBase, ref []byte) (byte, string) {
	switch {
	case hasScheme(ref):
		return refAbsolute, ""
	case len(ref) >= 2 && ref[0] == '/' && ref[1] == '/':
		return refNetwork, fb.scheme
	case len(ref) >= 1 && ref[0] == '/':
		return refRooted, fb.prefix
	case len(ref) == 0 || ref[0] == '?' || ref[0] == '#':
		return refNoPath, fb.s
	}
	return refRelative, fb.s[:fb.dirEnd]
}

func (m *Memo) hash(kind byte, ctx string, ref []byte) uint64 {
	h := maphash.Bytes(m.seed, ref)
	h ^= maphash.String(m.seed, ctx)*0x9e3779b97f4a7c15 + uint64(kind)
	return h
}

// pair returns the two candidate slots of hash h.
func (m *Memo) pair(h uint64) (*memoSlot, *memoSlot) {
	i, j := h&m.mask, h>>32&m.mask
	if i == j {
		j ^= 1
	}
	return &m.slots[i], &m.slots[j]
}

func (m *Memo) get(h uint64, kind byte, ctx string, ref []byte) *memoEntry {
	a, b := m.pair(h)
	for _, sl := range [2]*memoSlot{a, b} {
		if sl.hash.Load() != h {
			continue
		}
		if e := sl.e.Load(); e != nil && e.hash == h && e.kind == kind && e.ctx == ctx && e.ref == string(ref) {
			return e
		}
	}
	return nil
}

// admit reports whether the reference of hash h was resolved before (and
// forgets it then), else notes it.
func (m *Memo) admit(h uint64) bool {
	d := &m.door[h>>16&m.mask]
	if d.Load() == h {
		d.Store(0)
		return true
	}
	d.Store(h)
	return false
}

// put remembers e, which admit let in. Its ctx is a part of the base URL,
// which it keeps referenced: bases are at most maxMemoPart bytes
// (ResolveBytes).
func (m *Memo) put(e *memoEntry) {
	e.age = m.clock.Add(1)
	a, b := m.pair(e.hash)
	ea, eb := a.e.Load(), b.e.Load()
	sl := b
	switch {
	case ea == nil:
		sl = a
	case eb == nil:
	case ea.age <= eb.age:
		sl = a
	}
	sl.e.Store(e)
	sl.hash.Store(e.hash)
}

// ResolveBytes resolves ref against b like Resolve and returns ref as a
// string too. With a Memo, a reference resolved before against a base
// that agrees with b on what the result depends on (see Memo) is answered
// from m, returning the strings remembered then (equal to what Resolve
// would return, and allocating nothing); m may be nil.
func (b *Base) ResolveBytes(m *Memo, ref []byte) (raw, url string, err error) {
	raw, url, _, err = b.ResolveNoted(m, ref)
	return raw, url, err
}

// ResolveNoted is ResolveBytes that also returns the Note of the entry m
// answered from or made: nil when m does not remember the resolution (m
// nil, the WHATWG path, a reference resolved for the first time, parts
// over the size bound).
func (b *Base) ResolveNoted(m *Memo, ref []byte) (raw, url string, note *Note, err error) {
	if m == nil || b.fast == nil || len(ref) > maxMemoPart || len(b.fast.s) > maxMemoPart {
		raw = string(ref)
		url, err = b.Resolve(raw)
		return raw, url, nil, err
	}
	kind, ctx := refKind(b.fast, ref)
	h := m.hash(kind, ctx, ref)
	if e := m.get(h, kind, ctx, ref); e != nil {
		return e.ref, e.url, &e.note, nil
	}
	raw = string(ref)
	if s, ok := fastResolve(b.fast, raw); ok {
		if len(s) <= maxMemoPart && m.admit(h) {
			e := newMemoEntry(h, kind, ctx, raw, s)
			m.put(e)
			note = &e.note
		}
		return raw, s, note, nil
	}
	url, err = b.resolveSlow(raw)
	return raw, url, nil, err
}
