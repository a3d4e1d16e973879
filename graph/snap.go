package graph

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strconv"
)

// ReadSNAPFile reads a SNAP-style edge list from path, gzip-compressed or
// not (told apart by the gzip magic bytes, not the file name). See ReadSNAP.
func ReadSNAPFile(path string) (*CSR, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("graph: read edge list %s: %w", path, err)
	}
	defer f.Close()
	return ReadSNAP(f, path)
}

// ReadSNAP reads a SNAP-style edge list (snap.stanford.edu/data): one arc
// "src dst" per line, the two ids separated by any run of spaces or tabs,
// further columns (weights, timestamps) ignored; lines starting with '#' or
// '%' are comments, empty lines are skipped, CRLF is accepted. The input may
// be gzip-compressed. name is used in error messages, which wrap ErrFormat
// and name name:line.
//
// Ids are arbitrary non-negative integers below 2^64 (sparse, large, in any
// order). They are remapped to dense node ids 0..N-1 in order of first
// appearance (the source before the target on each line), and the original
// id of node v is kept in Labels[v]. Each node's targets keep file order;
// parallel arcs and self-loops are kept. Nodes that appear on no line cannot
// be represented: there are none in an edge list.
//
// A SNAP comment header "# Nodes: N Edges: M" (any case, either count
// alone) is checked against the data at the end: a mismatch is an error
// naming the header line. It is never used to size anything, so memory is
// proportional to the input: 8 bytes per arc while reading (4 after), and
// the id map plus 8 bytes of label and 8 of offset per distinct node.
func ReadSNAP(r io.Reader, name string) (*CSR, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: bad gzip header: %w", ErrFormat, name, err)
		}
		defer zr.Close()
		r = zr
	} else {
		r = br
	}
	sr := snapReader{lines: newLines(r, name, 1<<20), ids: make(map[uint64]uint32), labels: []uint64{},
		headNodes: -1, headEdges: -1}
	return sr.read()
}

type snapReader struct {
	lines
	ids      map[uint64]uint32
	labels   []uint64
	src, dst []uint32
	// Edge lists are usually grouped by source: the last source's id saves
	// one map lookup per line.
	lastSrc     uint64
	lastSrcID   uint32
	haveLastSrc bool

	// Counts from a "# Nodes: N Edges: M" comment, -1 when absent, and the
	// line that stated them.
	headNodes, headEdges int64
	headLine             int
}

func (sr *snapReader) read() (*CSR, error) {
	err := sr.each(func(c []byte) error {
		for len(c) > 0 {
			i := bytes.IndexByte(c, '\n')
			sr.line++
			if err := sr.parseLine(c[:i]); err != nil {
				return err
			}
			c = c[i+1:]
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	n, m := len(sr.labels), len(sr.src)
	if sr.headNodes >= 0 && sr.headNodes != int64(n) {
		return nil, sr.errorf(sr.headLine, "header says %d nodes, but the edges name %d distinct ids", sr.headNodes, n)
	}
	if sr.headEdges >= 0 && sr.headEdges != int64(m) {
		return nil, sr.errorf(sr.headLine, "header says %d edges, but the file has %d edge lines", sr.headEdges, m)
	}
	sr.ids = nil
	g := buildCSR(n, sr.src, sr.dst)
	sr.src, sr.dst = nil, nil
	g.Labels = sr.labels
	return g, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// parseLine handles one line without its '\n'.
func (sr *snapReader) parseLine(l []byte) error {
	i := 0
	for i < len(l) && isSpace(l[i]) {
		i++
	}
	if i == len(l) {
		return nil
	}
	if l[i] == '#' || l[i] == '%' {
		return sr.comment(l[i+1:])
	}
	var ids [2]uint64
	for k := range ids {
		if k > 0 {
			j := i
			for i < len(l) && isSpace(l[i]) {
				i++
			}
			if i == j || i == len(l) {
				return sr.errorf(sr.line, "want two node ids separated by whitespace, got %q", trimCR(l))
			}
		}
		j := i
		var v uint64
		for ; i < len(l) && l[i]-'0' <= 9; i++ {
			d := uint64(l[i] - '0')
			if v > (1<<64-1-d)/10 {
				return sr.errorf(sr.line, "node id %q does not fit in 64 bits", fieldAt(l, j))
			}
			v = v*10 + d
		}
		if i == j || i < len(l) && !isSpace(l[i]) {
			return sr.errorf(sr.line, "node ids must be non-negative decimal integers, got %q in %q", fieldAt(l, j), trimCR(l))
		}
		ids[k] = v
	}
	if len(sr.src) == 1<<32-1 {
		return sr.errorf(sr.line, "more than 2^32-1 edges")
	}
	s := sr.lastSrcID
	if !sr.haveLastSrc || ids[0] != sr.lastSrc {
		var err error
		if s, err = sr.node(ids[0]); err != nil {
			return err
		}
		sr.lastSrc, sr.lastSrcID, sr.haveLastSrc = ids[0], s, true
	}
	d, err := sr.node(ids[1])
	if err != nil {
		return err
	}
	sr.src = append(sr.src, s)
	sr.dst = append(sr.dst, d)
	return nil
}

// node returns the dense id of the file id v, assigning the next one on
// first sight.
func (sr *snapReader) node(v uint64) (uint32, error) {
	if id, ok := sr.ids[v]; ok {
		return id, nil
	}
	if len(sr.labels) == 1<<32-1 {
		return 0, sr.errorf(sr.line, "more than 2^32-1 distinct node ids")
	}
	id := uint32(len(sr.labels))
	sr.ids[v] = id
	sr.labels = append(sr.labels, v)
	return id, nil
}

// comment takes the counts of a SNAP header comment such as
// "# Nodes: 875713 Edges: 5105039"; other comments are ignored.
func (sr *snapReader) comment(c []byte) error {
	f := bytes.Fields(c)
	for k := 0; k+1 < len(f); k++ {
		key := string(bytes.ToLower(f[k]))
		if key != "nodes:" && key != "edges:" {
			continue
		}
		v, err := strconv.ParseInt(string(f[k+1]), 10, 64)
		if err != nil || v < 0 {
			return sr.errorf(sr.line, "header count %q after %q is not a non-negative integer", f[k+1], f[k])
		}
		if sr.headLine != 0 && sr.headLine != sr.line {
			return sr.errorf(sr.line, "second \"Nodes:/Edges:\" header line (first on line %d)", sr.headLine)
		}
		sr.headLine = sr.line
		if key == "nodes:" {
			sr.headNodes = v
		} else {
			sr.headEdges = v
		}
	}
	return nil
}

func fieldAt(l []byte, i int) string {
	j := i
	for j < len(l) && !isSpace(l[j]) {
		j++
	}
	return string(l[i:j])
}

func trimCR(l []byte) string { return string(bytes.TrimSuffix(l, []byte("\r"))) }
