package graph

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ReadArcsText reads the uncompressed arcs text: four header lines starting
// with "# ", one of them "# nodes: N arcs: M", then M lines "src<TAB>dst"
// with 0-based ids below N (a trailing CR and empty lines are tolerated). N
// comes from the header, so nodes on no line are kept as isolated nodes.
// Arcs need not be sorted; each node's targets keep file order. name is used
// in error messages, which wrap ErrFormat and name name:line.
//
// The header is not trusted with memory: nothing is sized from N or M
// before the data confirms them. Arcs are appended as they arrive (the
// preallocation from M is capped at MaxPrealloc), node offsets are only
// allocated once the file has ended with exactly M arcs, and N may be at
// most 2M+MaxIsolatedNodes: every node is an endpoint of an arc (at most 2M
// of them) or isolated, and a header claiming more isolated nodes than
// that is taken for a lie rather than honoured with gigabytes.
// Memory is thus O(bytes of input): 4 bytes per arc, 8 per node.
//
// Input sorted by source, as the shared data format is, is appended straight
// into the target array in one pass, recording where each source's run
// starts; the first source smaller than its predecessor switches to
// collecting (src, dst) pairs and a counting sort by source at the end.
func ReadArcsText(r io.Reader, name string) (*CSR, error) {
	ar := arcsReader{lines: newLines(r, name, 1<<20), n: -1, m: -1}
	return ar.read()
}

// lineReader hands out chunks of whole lines from r, each ending in '\n'
// (one is supplied for a last line without it).
type lineReader struct {
	r          io.Reader
	buf        []byte
	start, end int // buf[start:end] holds read but unconsumed bytes
	eof        bool
	err        error // read error, reported after the whole lines before it
}

var errLineTooLong = errors.New("line too long")

// chunk returns the next run of complete lines, nil at the end of input. A
// read error is returned once the complete lines read before it are
// consumed, so the caller can name the line where the input broke off.
func (lr *lineReader) chunk() ([]byte, error) {
	for {
		if i := bytes.LastIndexByte(lr.buf[lr.start:lr.end], '\n'); i >= 0 {
			c := lr.buf[lr.start : lr.start+i+1]
			lr.start += i + 1
			return c, nil
		}
		if lr.err != nil {
			return nil, lr.err
		}
		if lr.eof {
			if lr.start == lr.end {
				return nil, nil
			}
			// Last line without a newline: give it one.
			lr.buf = append(lr.buf[:lr.end], '\n')
			c := lr.buf[lr.start : lr.end+1]
			lr.start, lr.end = lr.end+1, lr.end+1
			return c, nil
		}
		// Move the partial line to the front and fill the rest.
		lr.end = copy(lr.buf, lr.buf[lr.start:lr.end])
		lr.start = 0
		if lr.end == len(lr.buf) {
			return nil, errLineTooLong
		}
		for lr.end < len(lr.buf) {
			k, err := lr.r.Read(lr.buf[lr.end:])
			lr.end += k
			if err == io.EOF {
				lr.eof = true
				break
			}
			if err != nil {
				lr.err = err
				break
			}
		}
	}
}

// lines is the input of a text reader: its chunks of whole lines, its name
// and the number of the last line consumed, which error messages give as
// name:line.
type lines struct {
	lr   lineReader
	name string
	line int // number of the last line consumed
}

func newLines(r io.Reader, name string, bufSize int) lines {
	return lines{lr: lineReader{r: r, buf: make([]byte, bufSize)}, name: name}
}

// errorf returns an ErrFormat error about line.
func (l *lines) errorf(line int, format string, a ...any) error {
	return fmt.Errorf("%w: %s:%d: %s", ErrFormat, l.name, line, fmt.Sprintf(format, a...))
}

// each calls fn with every run of complete lines in order, and stops at
// the end of input or the first error. fn counts the lines it consumes in
// l.line; a read error is an ErrFormat error about the line after them,
// where the input broke off.
func (l *lines) each(fn func(c []byte) error) error {
	for {
		c, err := l.lr.chunk()
		if err != nil {
			return fmt.Errorf("%w: %s:%d: %w", ErrFormat, l.name, l.line+1, err)
		}
		if c == nil {
			return nil
		}
		if err := fn(c); err != nil {
			return err
		}
	}
}

type arcsReader struct {
	lines
	n, m int

	tg []uint32
	// Sorted mode: runSrc[i] is the i-th distinct source, its arcs start at
	// tg[runStart[i]]. The runs grow with the data, never with the header.
	runSrc   []uint32
	runStart []uint64
	src      []uint32 // non-nil once the input turned out unsorted
	unsorted bool
}

// MaxIsolatedNodes is how many nodes a dataset header may declare beyond
// the 2M that its M arcs can name: isolated nodes appear on no line, so no
// data confirms them, and the count is capped to keep a lying header from
// allocating gigabytes (8 bytes per node). 2^20 nodes cost 8 MiB.
const MaxIsolatedNodes = 1 << 20

// MaxPrealloc caps how many elements a reader preallocates from a count a
// header states; beyond it, slices grow as the data arrives.
const MaxPrealloc = 1 << 20

func (ar *arcsReader) read() (*CSR, error) {
	err := ar.each(func(c []byte) error {
		for ar.line < 4 && len(c) > 0 {
			i := bytes.IndexByte(c, '\n')
			ar.line++
			if err := ar.header(strings.TrimSuffix(string(c[:i]), "\r")); err != nil {
				return err
			}
			c = c[i+1:]
		}
		if len(c) > 0 {
			return ar.arcs(c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if ar.line < 4 {
		return nil, ar.errorf(ar.line+1, "file ends inside the four-line header")
	}
	if ar.n < 0 {
		return nil, fmt.Errorf("%w: %s:1-4: header has no \"# nodes: N arcs: M\" line", ErrFormat, ar.name)
	}
	if len(ar.tg) != ar.m {
		return nil, ar.errorf(ar.line, "file ends after %d arcs, but the header says %d", len(ar.tg), ar.m)
	}
	// M is now confirmed by the data, and the header check bounded N by it,
	// so the N+1 offsets cost at most 16 bytes per arc plus 8 MiB.
	if ar.unsorted {
		return buildCSR(ar.n, ar.src, ar.tg), nil
	}
	off := make([]uint64, ar.n+1)
	v := 0
	for i, s := range ar.runSrc {
		for ; v <= int(s); v++ {
			off[v] = ar.runStart[i]
		}
	}
	for ; v <= ar.n; v++ {
		off[v] = uint64(len(ar.tg))
	}
	ar.runSrc, ar.runStart = nil, nil
	return &CSR{Offsets: off, Targets: ar.tg}, nil
}

// header checks one of the four header lines and takes N and M from the
// "# nodes: N arcs: M" line.
func (ar *arcsReader) header(t string) error {
	if !strings.HasPrefix(t, "# ") {
		return ar.errorf(ar.line, "header line %q does not start with \"# \"", t)
	}
	f := strings.Fields(t)
	if len(f) < 2 || f[1] != "nodes:" {
		return nil
	}
	if ar.n >= 0 {
		return ar.errorf(ar.line, "second \"# nodes:\" header line")
	}
	a, err1 := strconv.Atoi(safeField(f, 2))
	b, err2 := strconv.Atoi(safeField(f, 4))
	if len(f) != 5 || f[3] != "arcs:" || err1 != nil || err2 != nil || a < 0 || b < 0 || a > 1<<32-1 {
		return ar.errorf(ar.line, "want \"# nodes: N arcs: M\" with N < 2^32, got %q", t)
	}
	if a > MaxIsolatedNodes && (a-MaxIsolatedNodes-1)/2 >= b { // a > 2b+MaxIsolatedNodes without overflow
		return ar.errorf(ar.line, "header declares %d nodes but only %d arcs: at most 2*%d+%d nodes (endpoints plus isolated nodes) are accepted, so the counts look corrupt", a, b, b, MaxIsolatedNodes)
	}
	ar.n, ar.m = a, b
	// Preallocate from M, bounded so a corrupt header cannot demand memory
	// before a single arc is read; grow doubles up to M as arcs arrive.
	ar.tg = make([]uint32, 0, min(b, MaxPrealloc))
	return nil
}

func safeField(f []string, i int) string {
	if i < len(f) {
		return f[i]
	}
	return ""
}

// arcs parses a chunk of whole arc lines. The fast path handles
// "digits TAB digits LF"; anything else falls to badLine for a precise
// message or, for empty lines and CRs, is accepted.
func (ar *arcsReader) arcs(c []byte) error {
	if ar.n < 0 {
		return ar.errorf(ar.line+1, "arc before the \"# nodes: N arcs: M\" header line")
	}
	n := uint64(ar.n)
	i := 0
	for i < len(c) {
		ar.line++
		lineStart := i
		if c[i] == '\n' || c[i] == '\r' && i+1 < len(c) && c[i+1] == '\n' {
			i = bytes.IndexByte(c[i:], '\n') + i + 1 // empty line
			continue
		}
		var s, d uint64
		j := i
		for ; j < len(c) && c[j]-'0' <= 9; j++ {
			s = s*10 + uint64(c[j]-'0')
		}
		if j == i || j-i > 10 || c[j] != '\t' {
			return ar.badLine(c, lineStart)
		}
		j++
		k := j
		for ; c[k]-'0' <= 9; k++ {
			d = d*10 + uint64(c[k]-'0')
		}
		if k == j || k-j > 10 {
			return ar.badLine(c, lineStart)
		}
		if c[k] == '\r' {
			k++
		}
		if c[k] != '\n' {
			return ar.badLine(c, lineStart)
		}
		i = k + 1
		if s >= n || d >= n {
			return ar.errorf(ar.line, "node id out of range 0..%d in %q", n-1, lineText(c, lineStart))
		}
		if len(ar.tg) == ar.m {
			return ar.errorf(ar.line, "more arcs than the %d the header says", ar.m)
		}
		if len(ar.tg) == cap(ar.tg) {
			ar.grow()
		}
		src := uint32(s)
		switch {
		case ar.unsorted:
			ar.src = append(ar.src, src)
		case len(ar.runSrc) > 0 && src < ar.runSrc[len(ar.runSrc)-1]:
			ar.becomeUnsorted()
			ar.src = append(ar.src, src)
		case len(ar.runSrc) == 0 || src > ar.runSrc[len(ar.runSrc)-1]:
			ar.runSrc = append(ar.runSrc, src)
			ar.runStart = append(ar.runStart, uint64(len(ar.tg)))
		}
		ar.tg = append(ar.tg, uint32(d))
	}
	return nil
}

// grow doubles the capacity of the arc arrays, but never beyond the M the
// header states: arcs arrive before memory is committed to them (at most
// twice what the data holds), and a truthful header ends with exactly M
// slots, no slack.
func (ar *arcsReader) grow() {
	c := min(max(2*cap(ar.tg), 1024), ar.m)
	ar.tg = append(make([]uint32, 0, c), ar.tg...)
	if ar.unsorted {
		ar.src = append(make([]uint32, 0, c), ar.src...)
	}
}

// becomeUnsorted switches from appending into runs to collecting (src, dst)
// pairs, recovering the sources of the arcs read so far from the runs.
func (ar *arcsReader) becomeUnsorted() {
	ar.unsorted = true
	ar.src = make([]uint32, len(ar.tg), cap(ar.tg))
	for i, s := range ar.runSrc {
		hi := uint64(len(ar.tg))
		if i+1 < len(ar.runSrc) {
			hi = ar.runStart[i+1]
		}
		for p := ar.runStart[i]; p < hi; p++ {
			ar.src[p] = s
		}
	}
	ar.runSrc, ar.runStart = nil, nil
}

func (ar *arcsReader) badLine(c []byte, start int) error {
	return ar.errorf(ar.line, "want \"src<TAB>dst\" with two decimal node ids, got %q", lineText(c, start))
}

func lineText(c []byte, start int) string {
	end := bytes.IndexByte(c[start:], '\n')
	return strings.TrimSuffix(string(c[start:start+end]), "\r")
}

// buildCSR groups (src[i], dst[i]) arcs by source with a counting sort that
// keeps each source's arcs in input order.
func buildCSR(n int, src, dst []uint32) *CSR {
	off := make([]uint64, n+1)
	for _, s := range src {
		off[s+1]++
	}
	for i := 1; i <= n; i++ {
		off[i] += off[i-1]
	}
	tg := make([]uint32, len(dst))
	pos := make([]uint64, n)
	copy(pos, off[:n])
	for i, s := range src {
		tg[pos[s]] = dst[i]
		pos[s]++
	}
	return &CSR{Offsets: off, Targets: tg}
}
