package graph

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// MaxArcsPerBit bounds the arc count a BVGraph's properties may declare:
// at most MaxArcsPerBit arcs per bit of its .graph file (plus
// MaxIsolatedNodes). Copy blocks and intervals let a few bits stand for
// many arcs, so no exact bound exists; the best-compressed real web graphs
// of the LAW collection use about one bit per arc, and 64 arcs per bit
// leaves a wide margin while bounding what a small file can make the
// decoder hold: at most 2 KiB of arcs per byte of .graph, about twice
// gzip's worst-case expansion, and only as the arcs are actually decoded.
const MaxArcsPerBit = 64

// bvCode is one of WebGraph's instantaneous codes.
type bvCode int

const (
	codeGamma bvCode = iota
	codeDelta
	codeUnary
	codeZeta
	codeNibble
)

// bvCodeNamed returns the code a compressionflags suffix names.
func bvCodeNamed(name string) (bvCode, bool) {
	switch name {
	case "GAMMA":
		return codeGamma, true
	case "DELTA":
		return codeDelta, true
	case "UNARY":
		return codeUnary, true
	case "ZETA":
		return codeZeta, true
	case "NIBBLE":
		return codeNibble, true
	}
	return 0, false
}

// bvParams are the decoding parameters of a BVGraph, from its .properties.
type bvParams struct {
	nodes, arcs    uint64
	window         uint64 // references reach back at most this many nodes; 0: none
	minInterval    uint64 // shortest interval; 0: no intervals
	zetaK          uint
	outdegree      bvCode
	reference      bvCode
	blockCount     bvCode
	block          bvCode
	residual       bvCode
	offset         bvCode
	graphBits      uint64 // size of the .graph file in bits
	graphName      string
	offsetsName    string
	propertiesName string
}

// ReadBVGraph reads the LAW WebGraph BVGraph BASENAME.graph, with its
// BASENAME.properties and, when present, BASENAME.offsets, into a CSR graph
// whose node v's successors are sorted, as BVGraph stores them. When
// BASENAME.urls.gz exists (LAW distributes one URL per line in node order
// beside many graphs), it must have one line per node and gives the graph
// its URLs and hosts, as for ReadDataset.
//
// The format (Boldi and Vigna, "The WebGraph Framework I: Compression
// Techniques", WWW 2004; javadoc of it.unimi.dsi.webgraph.BVGraph) stores
// node x's successor list, MSB-first, as: its outdegree d; when the window
// size is positive, a reference r ≤ window; when r > 0, a block count and
// copy blocks selecting successors of node x−r (copy, skip, copy, ...; the
// rest is copied when the count is even); then, when minintervallength is
// positive, intervals of consecutive successors (left extreme relative to
// x, then to the previous interval); and last the residuals, gap-coded.
// Version 0 (big-endian) is read; every code the compressionflags property
// may name is supported except Golomb codes, which are refused by name.
//
// The decoder is sequential: the list of x−r is already in the CSR arrays,
// so no window is kept. When .offsets exists, every node's start bit is
// checked against it as the stream is read (it is not needed otherwise).
//
// Nothing is trusted with memory: nodes must fit in the bits of .graph (an
// empty list costs at least one bit), arcs in MaxArcsPerBit per bit, and
// every outdegree, reference, block and interval is checked against the
// data decoded so far before it is used. Errors wrap ErrFormat and name the
// file with a line (.properties) or node and bit offset (.graph, .offsets).
// Memory: 8 bytes per node, 4 per arc, and fixed I/O buffers.
func ReadBVGraph(basename string) (*CSR, error) {
	p, err := readBVProperties(basename + ".properties")
	if err != nil {
		return nil, err
	}
	gf, err := os.Open(basename + ".graph")
	if err != nil {
		return nil, fmt.Errorf("graph: read BVGraph %s: %w", basename, err)
	}
	defer gf.Close()
	st, err := gf.Stat()
	if err != nil {
		return nil, fmt.Errorf("graph: read BVGraph %s: %w", basename, err)
	}
	p.graphName = basename + ".graph"
	p.graphBits = uint64(st.Size()) * 8
	var offsets io.Reader
	of, err := os.Open(basename + ".offsets")
	switch {
	case err == nil:
		defer of.Close()
		offsets = of
		p.offsetsName = basename + ".offsets"
	case !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("graph: read BVGraph %s: %w", basename, err)
	}
	g, err := decodeBVGraph(p, gf, offsets)
	if err != nil {
		return nil, err
	}
	return withURLs(g, basename, "BVGraph")
}

// readBVProperties parses a Java properties file (key=value, key:value or
// key value; # and ! comments; backslash continuations and escapes) and
// takes the BVGraph parameters from it.
func readBVProperties(path string) (*bvParams, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("graph: read BVGraph properties: %w", err)
	}
	defer f.Close()
	// A properties file is a few hundred bytes; 1 MiB is plenty and bounds
	// what a hostile one can cost.
	data, err := io.ReadAll(io.LimitReader(f, 1<<20+1))
	if err != nil {
		return nil, fmt.Errorf("graph: read BVGraph properties %s: %w", path, err)
	}
	if len(data) > 1<<20 {
		return nil, fmt.Errorf("%w: %s: larger than 1 MiB", ErrFormat, path)
	}
	return parseBVProperties(data, path)
}

func parseBVProperties(data []byte, path string) (*bvParams, error) {
	props, lines, err := parseJavaProperties(data, path)
	if err != nil {
		return nil, err
	}
	errorf := func(key, format string, a ...any) error {
		line := lines[key]
		return fmt.Errorf("%w: %s:%d: %s: %s", ErrFormat, path, line, key, fmt.Sprintf(format, a...))
	}
	p := &bvParams{zetaK: 3, outdegree: codeGamma, reference: codeUnary, blockCount: codeGamma, block: codeGamma,
		residual: codeZeta, offset: codeGamma, propertiesName: path}
	num := func(key string, def int64, max uint64) (uint64, error) {
		s, ok := props[key]
		if !ok {
			if def < 0 {
				return 0, fmt.Errorf("%w: %s: no %q property", ErrFormat, path, key)
			}
			return uint64(def), nil
		}
		v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil || v > max {
			return 0, errorf(key, "want an integer in 0..%d, got %q", max, s)
		}
		return v, nil
	}
	if c, ok := props["graphclass"]; ok && !strings.HasSuffix(strings.TrimSpace(c), ".BVGraph") {
		return nil, errorf("graphclass", "%q is not a BVGraph", c)
	}
	if v, err := num("version", -1, 1<<31); err != nil {
		return nil, err
	} else if v != 0 {
		return nil, errorf("version", "format version %d is not supported (only 0)", v)
	}
	if e, ok := props["endianness"]; ok && strings.TrimSpace(e) != "big" {
		return nil, errorf("endianness", "%q bit order is not supported (only big)", e)
	}
	if p.nodes, err = num("nodes", -1, 1<<32-1); err != nil {
		return nil, err
	}
	if p.arcs, err = num("arcs", -1, 1<<62); err != nil {
		return nil, err
	}
	if p.window, err = num("windowsize", -1, 1<<31); err != nil {
		return nil, err
	}
	if p.minInterval, err = num("minintervallength", -1, 1<<31); err != nil {
		return nil, err
	}
	k, err := num("zetak", 3, 30)
	if err != nil {
		return nil, err
	}
	if k == 0 {
		return nil, errorf("zetak", "must be at least 1")
	}
	p.zetaK = uint(k)
	if _, err := num("maxrefcount", 0, 1<<31); err != nil {
		return nil, err
	}
	for _, flag := range strings.Split(props["compressionflags"], "|") {
		flag = strings.TrimSpace(flag)
		if flag == "" {
			continue
		}
		i := strings.LastIndexByte(flag, '_')
		if i < 0 {
			return nil, errorf("compressionflags", "unknown flag %q", flag)
		}
		code, ok := bvCodeNamed(flag[i+1:])
		if !ok {
			return nil, errorf("compressionflags", "%q: code %s is not supported (gamma, delta, unary, zeta, nibble are)", flag, flag[i+1:])
		}
		switch flag[:i] {
		case "OUTDEGREES":
			p.outdegree = code
		case "REFERENCES":
			p.reference = code
		case "BLOCK_COUNT":
			p.blockCount = code
		case "BLOCKS":
			p.block = code
		case "RESIDUALS":
			p.residual = code
		case "OFFSETS":
			if code != codeGamma && code != codeDelta {
				return nil, errorf("compressionflags", "%q: offsets are gamma- or delta-coded", flag)
			}
			p.offset = code
		default:
			return nil, errorf("compressionflags", "unknown flag %q", flag)
		}
	}
	return p, nil
}

// parseJavaProperties returns the key/value pairs of a Java properties file
// and the line each key was on.
func parseJavaProperties(data []byte, path string) (map[string]string, map[string]int, error) {
	props := make(map[string]string)
	lines := make(map[string]int)
	raw := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for i := 0; i < len(raw); i++ {
		lineNo := i + 1
		l := strings.TrimLeft(raw[i], " \t\f")
		if l == "" || l[0] == '#' || l[0] == '!' {
			continue
		}
		// A line ending in an odd number of backslashes continues.
		for strings.HasSuffix(l, `\`) && (len(l)-len(strings.TrimRight(l, `\`)))%2 == 1 && i+1 < len(raw) {
			i++
			l = l[:len(l)-1] + strings.TrimLeft(raw[i], " \t\f")
		}
		key, value, err := splitProperty(l)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %s:%d: %w", ErrFormat, path, lineNo, err)
		}
		props[key] = value
		lines[key] = lineNo
	}
	return props, lines, nil
}

// splitProperty splits a logical line at the first unescaped '=', ':' or
// whitespace and unescapes both sides.
func splitProperty(l string) (key, value string, err error) {
	i := 0
	for i < len(l) {
		c := l[i]
		if c == '\\' {
			i += 2
			continue
		}
		if c == '=' || c == ':' || c == ' ' || c == '\t' || c == '\f' {
			break
		}
		i++
	}
	i = min(i, len(l))
	k := l[:i]
	// Whitespace, then at most one '=' or ':', then whitespace separate them.
	rest := strings.TrimLeft(l[i:], " \t\f")
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = strings.TrimLeft(rest[1:], " \t\f")
	}
	if key, err = unescapeProperty(k); err != nil {
		return "", "", err
	}
	value, err = unescapeProperty(rest)
	return key, value, err
}

func unescapeProperty(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+5 > len(s) {
				return "", fmt.Errorf("malformed \\u escape in %q", s)
			}
			r, err := strconv.ParseUint(s[i+1:i+5], 16, 16)
			if err != nil {
				return "", fmt.Errorf("malformed \\u escape in %q", s)
			}
			b.WriteRune(rune(r))
			i += 4
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}

// bvDecoder decodes the successor lists of a BVGraph one node after the
// other, straight into CSR arrays.
type bvDecoder struct {
	p   *bvParams
	br  *bitReader
	off []uint64
	tg  []uint32
	x   uint64 // node being decoded

	// Scratch space reused across nodes.
	copied, intervals, residuals, extra []uint32
}

func (d *bvDecoder) read(c bvCode) (uint64, error) {
	switch c {
	case codeGamma:
		return d.br.gamma()
	case codeDelta:
		return d.br.delta()
	case codeUnary:
		return d.br.unary()
	case codeZeta:
		return d.br.zeta(d.p.zetaK)
	default:
		return d.br.nibble()
	}
}

// fail wraps a decoding error with the file, node and bit offset.
func (d *bvDecoder) fail(start uint64, format string, a ...any) error {
	return fmt.Errorf("%w: %s: node %d (list at bit %d): %s", ErrFormat, d.p.graphName, d.x, start, fmt.Sprintf(format, a...))
}

// nat2int undoes WebGraph's int2nat: 2x for x ≥ 0, −2x−1 for x < 0.
func nat2int(v uint64) int64 { return int64(v>>1) ^ -int64(v&1) }

// decodeBVGraph decodes the p.nodes successor lists of graph, checking each
// list's start against offsets when it is not nil.
func decodeBVGraph(p *bvParams, graph, offsets io.Reader) (*CSR, error) {
	if p.nodes > p.graphBits {
		return nil, fmt.Errorf("%w: %s: nodes=%d, but %s has only %d bits and every node takes at least one", ErrFormat,
			p.propertiesName, p.nodes, p.graphName, p.graphBits)
	}
	if p.arcs > MaxArcsPerBit*p.graphBits+MaxIsolatedNodes {
		return nil, fmt.Errorf("%w: %s: arcs=%d in a %d-bit %s: more than %d arcs per bit, the counts look corrupt", ErrFormat,
			p.propertiesName, p.arcs, p.graphBits, p.graphName, MaxArcsPerBit)
	}
	if p.arcs > p.nodes*p.nodes {
		return nil, fmt.Errorf("%w: %s: arcs=%d exceeds nodes²=%d, but successors are distinct", ErrFormat, p.propertiesName, p.arcs, p.nodes*p.nodes)
	}
	// Offsets cost 8 bytes per node, at most 64 per byte of .graph since
	// nodes ≤ bits. Preallocating up to one arc per bit of input costs at
	// most 32 bytes per byte, and real graphs (2-3 bits per arc) fit it.
	d := &bvDecoder{p: p, br: newBitReader(graph, 1<<16),
		off: make([]uint64, p.nodes+1), tg: make([]uint32, 0, min(p.arcs, p.graphBits))}
	var ob *bitReader
	var expect uint64
	if offsets != nil {
		ob = newBitReader(offsets, 1<<16)
	}
	checkOffset := func(node uint64) error {
		if ob == nil {
			return nil
		}
		var gap uint64
		var err error
		if p.offset == codeDelta {
			gap, err = ob.delta()
		} else {
			gap, err = ob.gamma()
		}
		if err != nil {
			return fmt.Errorf("%w: %s: offset of node %d (bit %d): %w", ErrFormat, p.offsetsName, node, ob.pos, err)
		}
		expect += gap
		if expect != d.br.pos {
			return fmt.Errorf("%w: %s: node %d starts at bit %d of %s, but the offsets say %d", ErrFormat,
				p.offsetsName, node, d.br.pos, p.graphName, expect)
		}
		return nil
	}
	for d.x = 0; d.x < p.nodes; d.x++ {
		if err := checkOffset(d.x); err != nil {
			return nil, err
		}
		d.off[d.x] = uint64(len(d.tg))
		if err := d.node(); err != nil {
			return nil, err
		}
	}
	d.off[p.nodes] = uint64(len(d.tg))
	if err := checkOffset(p.nodes); err != nil {
		return nil, err
	}
	if uint64(len(d.tg)) != p.arcs {
		return nil, fmt.Errorf("%w: %s: arcs=%d, but %s holds %d", ErrFormat, p.propertiesName, p.arcs, p.graphName, len(d.tg))
	}
	// Writers pad the stream to a byte or, for the files webgraph-rs
	// distributes (cnr-2000 among them), to a 64-bit word; anything beyond
	// that is not part of the graph.
	if p.graphBits-d.br.pos >= 64 {
		return nil, fmt.Errorf("%w: %s: %d bits left after the last of the %d nodes", ErrFormat, p.graphName, p.graphBits-d.br.pos, p.nodes)
	}
	return &CSR{Offsets: d.off, Targets: d.tg}, nil
}

// node decodes the successor list of d.x and appends it to d.tg.
func (d *bvDecoder) node() error {
	p, x, start := d.p, d.x, d.br.pos
	wrap := func(what string, err error) error {
		return fmt.Errorf("%w: %s: node %d (list at bit %d): %s: %w", ErrFormat, d.p.graphName, d.x, start, what, err)
	}
	deg, err := d.read(p.outdegree)
	if err != nil {
		return wrap("outdegree", err)
	}
	if deg > p.nodes {
		return d.fail(start, "outdegree %d exceeds the %d nodes", deg, p.nodes)
	}
	if deg > p.arcs-uint64(len(d.tg)) {
		return d.fail(start, "outdegree %d takes the arcs past the %d that the properties declare", deg, p.arcs)
	}
	if deg == 0 {
		return nil
	}
	var ref uint64
	if p.window > 0 {
		if ref, err = d.read(p.reference); err != nil {
			return wrap("reference", err)
		}
		if ref > p.window || ref > x {
			return d.fail(start, "reference %d reaches outside the window (size %d) or before node 0", ref, p.window)
		}
	}
	d.copied = d.copied[:0]
	if ref > 0 {
		list := d.tg[d.off[x-ref]:d.off[x-ref+1]]
		count, err := d.read(p.blockCount)
		if err != nil {
			return wrap("block count", err)
		}
		if count > uint64(len(list))+1 {
			return d.fail(start, "%d copy blocks for a reference list of %d", count, len(list))
		}
		pos := uint64(0)
		for i := uint64(0); i < count; i++ {
			b, err := d.read(p.block)
			if err != nil {
				return wrap("copy block", err)
			}
			if i > 0 {
				b++ // only the first block may be empty, so the others are stored minus one
			}
			if b > uint64(len(list))-pos {
				return d.fail(start, "copy blocks run past the %d successors of node %d", len(list), x-ref)
			}
			if i%2 == 0 {
				d.copied = append(d.copied, list[pos:pos+b]...)
			}
			pos += b
		}
		if count%2 == 0 {
			d.copied = append(d.copied, list[pos:]...)
		}
		if uint64(len(d.copied)) > deg {
			return d.fail(start, "%d successors copied, but the outdegree is %d", len(d.copied), deg)
		}
	}
	extra := deg - uint64(len(d.copied))
	d.intervals = d.intervals[:0]
	if extra > 0 && p.minInterval > 0 {
		count, err := d.br.gamma()
		if err != nil {
			return wrap("interval count", err)
		}
		if count > extra/p.minInterval {
			return d.fail(start, "%d intervals of at least %d for %d extra successors", count, p.minInterval, extra)
		}
		next := int64(0) // one past the previous interval
		for i := uint64(0); i < count; i++ {
			v, err := d.br.gamma()
			if err != nil {
				return wrap("interval", err)
			}
			var left int64
			if i == 0 {
				left = int64(x) + nat2int(v)
			} else {
				left = next + int64(v) + 1 // intervals are separated by at least one non-successor
			}
			l, err := d.br.gamma()
			if err != nil {
				return wrap("interval length", err)
			}
			if l > extra-p.minInterval {
				return d.fail(start, "interval length %d+%d exceeds the %d extra successors left", l, p.minInterval, extra)
			}
			l += p.minInterval
			if left < 0 || v > 1<<40 || uint64(left)+l > p.nodes {
				return d.fail(start, "interval [%d, %d+%d) outside 0..%d", left, left, l, p.nodes-1)
			}
			for s := uint64(left); s < uint64(left)+l; s++ {
				d.intervals = append(d.intervals, uint32(s))
			}
			next = left + int64(l)
			extra -= l
		}
	}
	d.residuals = d.residuals[:0]
	if extra > 0 {
		v, err := d.read(p.residual)
		if err != nil {
			return wrap("first residual", err)
		}
		r := int64(x) + nat2int(v)
		for {
			if r < 0 || uint64(r) >= p.nodes {
				return d.fail(start, "residual %d outside 0..%d", r, p.nodes-1)
			}
			d.residuals = append(d.residuals, uint32(r))
			if extra--; extra == 0 {
				break
			}
			g, err := d.read(p.residual)
			if err != nil {
				return wrap("residual", err)
			}
			if g >= p.nodes {
				return d.fail(start, "residual gap %d exceeds the %d nodes", g, p.nodes)
			}
			r += int64(g) + 1
		}
	}
	// The three parts are each increasing; merge them into the list.
	d.extra = mergeSorted(d.extra[:0], d.intervals, d.residuals)
	before := len(d.tg)
	d.tg = mergeSorted(d.tg, d.copied, d.extra)
	for i := before + 1; i < len(d.tg); i++ {
		if d.tg[i] <= d.tg[i-1] {
			return d.fail(start, "successor %d repeated or out of order", d.tg[i])
		}
	}
	return nil
}

// mergeSorted appends the merge of the sorted slices a and b to dst.
func mergeSorted(dst, a, b []uint32) []uint32 {
	if len(b) == 0 {
		return append(dst, a...)
	}
	if len(a) == 0 {
		return append(dst, b...)
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] <= b[j] {
			dst = append(dst, a[i])
			i++
		} else {
			dst = append(dst, b[j])
			j++
		}
	}
	dst = append(dst, a[i:]...)
	return append(dst, b[j:]...)
}

// IsBVGraph reports whether basename names a BVGraph: BASENAME.graph and
// BASENAME.properties both exist.
func IsBVGraph(basename string) bool {
	for _, ext := range []string{".graph", ".properties"} {
		if st, err := os.Stat(basename + ext); err != nil || st.IsDir() {
			return false
		}
	}
	return true
}
