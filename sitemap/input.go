package sitemap

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"math"
)

// countReader counts the bytes read from r and stops after max of them.
type countReader struct {
	r   io.Reader
	n   int64
	max int64
	cut *string
	err error // the last error of r other than io.EOF
}

func (c *countReader) Read(p []byte) (int, error) {
	if c.n > c.max {
		*c.cut = fmt.Sprintf("gzip-bytes: more than %d compressed bytes", c.max)
		return 0, errCut
	}
	if rest := c.max + 1 - c.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		// One byte more than allowed arrived: there is more input than the
		// bound, so the extra byte is withheld and reading stops.
		n -= int(c.n - c.max)
		*c.cut = fmt.Sprintf("gzip-bytes: more than %d compressed bytes", c.max)
		return n, errCut
	}
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

// boundReader delivers at most max bytes of r and, when raw counts the
// compressed input, stops a stream that expands more than ratio times.
type boundReader struct {
	r     io.Reader
	n     int64
	max   int64
	raw   *countReader // nil unless gzipped
	ratio int64
	cut   *string
}

func (b *boundReader) Read(p []byte) (int, error) {
	if *b.cut != "" {
		return 0, errCut
	}
	if rest := b.max + 1 - b.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	switch {
	case b.n > b.max:
		n -= int(b.n - b.max)
		b.n = b.max
		*b.cut = fmt.Sprintf("bytes: more than %d bytes uncompressed", b.max)
		return n, errCut
	case b.raw != nil && b.n > ratioGrace && b.n > b.ratio*b.raw.n:
		*b.cut = fmt.Sprintf("gzip-ratio: expands more than %d times (%d bytes from %d)", b.ratio, b.n, b.raw.n)
		return n, errCut
	case b.raw != nil && err != nil && err != io.EOF && err != errCut && b.raw.err == nil:
		// The input read fine, so the decompressor found the stream
		// corrupt or truncated.
		return n, fmt.Errorf("%w: gzip: %w", ErrSyntax, err)
	}
	return n, err
}

// input wraps a sitemap body: gunzipped when it starts with the gzip magic
// (whatever its name says: servers often decompress .gz files on the fly,
// or gzip files not named .gz), bounded by lim.
type input struct {
	br   *bufio.Reader
	body *boundReader
	raw  *countReader
	gz   bool
	cut  string
}

func newInput(r io.Reader, lim Limits) (*input, error) {
	in := &input{}
	// Plain input is bounded by the boundReader below; the raw bound
	// matters only for gzip, whose stream can consume input without
	// producing any (empty members, long headers).
	in.raw = &countReader{r: r, max: math.MaxInt64 - 1, cut: &in.cut}
	// A small buffer: the expansion ratio is checked against the
	// compressed bytes read, so read-ahead loosens the check.
	rb := bufio.NewReaderSize(in.raw, 4<<10)
	var body io.Reader = rb
	if m, _ := rb.Peek(2); len(m) == 2 && m[0] == 0x1f && m[1] == 0x8b {
		zr, err := gzip.NewReader(rb)
		if err != nil {
			return nil, fmt.Errorf("%w: gzip header: %w", ErrSyntax, err)
		}
		body, in.gz = zr, true
		in.raw.max = lim.MaxBytes
	}
	in.body = &boundReader{r: body, max: lim.MaxBytes, ratio: lim.MaxRatio, cut: &in.cut}
	if in.gz {
		in.body.raw = in.raw
	}
	in.br = bufio.NewReaderSize(in.body, 32<<10)
	return in, nil
}

// fill copies the byte counts into res.
func (in *input) fill(res *Result) {
	res.Bytes = in.body.n
	if in.gz {
		res.Compressed = min(in.raw.n, in.raw.max)
	}
}
