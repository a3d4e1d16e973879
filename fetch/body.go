package fetch

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httptrace"
	"slices"
	"strings"
	"time"
)

// acceptEncoding is what we ask for. Setting it ourselves stops net/http
// from decoding gzip transparently, so the decoded size can be bounded
// here (net/http would inflate without limit).
const acceptEncoding = "gzip, deflate"

// drainMax is how much of an unwanted body is read so the connection can be
// reused; longer bodies are abandoned and the connection closed.
const drainMax = 64 << 10

// callKey carries the *call of the current Fetch in the request context,
// from Fetch down to limitTransport.RoundTrip.
type callKey struct{}

// limitTransport wraps the crawl transport for one Fetcher: it records the
// status and headers of the response (colly loses them when the body read
// fails), drops bodies the crawler does not parse, decodes
// Content-Encoding and bounds the decoded size.
type limitTransport struct {
	next     http.RoundTripper
	maxBody  int64
	maxRatio int64
	// gz is reused across requests (a gzip.Reader holds about 40 KiB of
	// state); safe because a Fetcher runs one request at a time.
	gz *gzip.Reader
}

func (t *limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c, _ := req.Context().Value(callKey{}).(*call)
	if c != nil {
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), c.trace()))
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return resp, nil
	}
	c.gotHeaders = true
	c.reserve(resp.ContentLength)
	c.code = resp.StatusCode
	c.header = resp.Header
	c.contentType = mediaType(resp.Header.Get("Content-Type"))
	if c.contentType == "" && resp.StatusCode >= 200 && resp.StatusCode <= 299 && !c.keepBody {
		c.contentType = sniff(resp)
	}
	c.length = resp.ContentLength
	// colly decodes gzip itself when Uncompressed is false, without a
	// bound on the decoded size; everything it sees from us is plain.
	resp.Uncompressed = true
	// colly converts the body to UTF-8 when Content-Type declares a
	// charset. The extractor decodes instead, from header, BOM and <meta>
	// together, so colly gets the header without Content-Type (it reads
	// nothing else from it that we use).
	resp.Header = withoutContentType(resp.Header)
	if resp.StatusCode < 200 || resp.StatusCode > 299 || !IsHTML(c.contentType) && !c.keepBody {
		var complete bool
		resp.Body, complete = dropBody(resp.Body, resp.ContentLength)
		c.bodyUnread = !complete
		resp.ContentLength = 0
		c.header.Del("Content-Encoding")
		return resp, nil
	}
	c.wantBody = true
	enc := strings.ToLower(strings.TrimSpace(c.header.Get("Content-Encoding")))
	c.header.Del("Content-Encoding")
	resp.Header.Del("Content-Encoding")
	resp.ContentLength = -1
	raw := &countReader{r: resp.Body}
	lb := &limitBody{c: c, raw: raw, closer: resp.Body, max: t.maxBody, maxRatio: t.maxRatio}
	switch enc {
	case "", "identity":
		lb.r = raw
	case "gzip", "x-gzip":
		lb.r = &lazyDecoder{open: func() (io.Reader, error) { return t.gunzip(raw) }}
		lb.encoded = true
	case "deflate":
		lb.r = &lazyDecoder{open: func() (io.Reader, error) { return openDeflate(raw) }}
		lb.encoded = true
	default:
		c.badEncoding = enc
		var complete bool
		resp.Body, complete = dropBody(resp.Body, -1)
		c.bodyUnread = !complete
		return resp, nil
	}
	resp.Body = lb
	return resp, nil
}

// gunzip returns the transport's gzip reader reset onto r.
func (t *limitTransport) gunzip(r io.Reader) (io.Reader, error) {
	if t.gz == nil {
		gz, err := gzip.NewReader(r)
		if err != nil {
			return nil, err
		}
		t.gz = gz
		return gz, nil
	}
	if err := t.gz.Reset(r); err != nil {
		return nil, err
	}
	return t.gz, nil
}

// sniffLen is how much of a body without a Content-Type is looked at to
// tell its type, as http.DetectContentType does.
const sniffLen = 512

// sniff tells the media type of a response sent without a Content-Type
// as browsers do (http.DetectContentType): "text/html" if the first
// sniffLen bytes look like HTML, else "". Only a body sent as it is
// (no Content-Encoding) is looked at: a compressed one is not decoded to
// guess, and stays a body of no declared type. The bytes looked at stay
// in resp.Body.
func sniff(resp *http.Response) string {
	if enc := strings.TrimSpace(resp.Header.Get("Content-Encoding")); enc != "" && !strings.EqualFold(enc, "identity") {
		return ""
	}
	br := bufio.NewReaderSize(resp.Body, sniffLen)
	resp.Body = struct {
		io.Reader
		io.Closer
	}{br, resp.Body}
	head, _ := br.Peek(sniffLen) // short at the body's end; an error recurs on the next read
	if mt := mediaType(http.DetectContentType(head)); IsHTML(mt) {
		return mt
	}
	return ""
}

// IsHTML reports whether a media type (lower-case, no parameters) is one
// the crawler parses: text/html or application/xhtml+xml.
func IsHTML(mediaType string) bool {
	return mediaType == "text/html" || mediaType == "application/xhtml+xml"
}

// mediaType returns the lower-cased media type of a Content-Type value,
// without parameters; "" if absent. It is what mime.ParseMediaType
// returns for a valid value, and the same text when the value does not
// parse, without ParseMediaType's parameter map: one call per fetch.
func mediaType(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// dropBody replaces a body nobody will read. A body that may be short (known
// length up to drainMax, or unknown length) is read up to drainMax bytes: if
// it ends by then, the connection goes back to the pool. Anything longer is
// closed unread, which closes the connection rather than download it.
// complete reports whether the whole body was read.
func dropBody(b io.ReadCloser, length int64) (_ io.ReadCloser, complete bool) {
	if length == 0 {
		complete = true
	} else if length <= drainMax {
		n, err := io.Copy(io.Discard, io.LimitReader(b, drainMax+1))
		complete = err == nil && n <= drainMax
	}
	b.Close()
	return http.NoBody, complete
}

// withoutContentType returns a shallow copy of h without Content-Type.
func withoutContentType(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for k, v := range h {
		if k != "Content-Type" {
			out[k] = v
		}
	}
	return out
}

// charsetOf returns the lower-cased charset parameter of a Content-Type
// value, "" if there is none or the value does not parse.
func charsetOf(ct string) string {
	if ct == "" {
		return ""
	}
	if cs, ok := simpleCharset(ct); ok {
		return cs
	}
	_, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return ""
	}
	return strings.ToLower(strings.TrimSpace(params["charset"]))
}

// simpleCharset answers charsetOf for the values nearly every server
// sends, "type/subtype" and "type/subtype; charset=token" (tokens only,
// no quotes, no other parameter), without mime.ParseMediaType's
// allocations; ok is false for anything else, which charsetOf parses in
// full.
func simpleCharset(ct string) (charset string, ok bool) {
	mt, params, hasParams := strings.Cut(ct, ";")
	typ, sub, slash := strings.Cut(strings.TrimSpace(mt), "/")
	if !slash || !isToken(typ) || !isToken(sub) {
		return "", false
	}
	if !hasParams {
		return "", true
	}
	name, value, eq := strings.Cut(strings.TrimSpace(params), "=")
	if !eq || !strings.EqualFold(name, "charset") || !isToken(value) {
		return "", false
	}
	return strings.ToLower(value), true
}

// isToken reports whether s is a non-empty RFC 2045 token: printable
// ASCII without space and tspecials.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?=`, c) >= 0 {
			return false
		}
	}
	return true
}

// trace returns the httptrace hooks of one Fetch: the connection used
// (its address, and the recorder attached to it when recording) and the
// moments the request was written and the first response byte arrived.
// GotConn runs on the caller's goroutine; WroteRequest and
// GotFirstResponseByte run on the transport's write and read loops, hence
// the atomics.
func (c *call) trace() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			if a, ok := info.Conn.RemoteAddr().(*net.TCPAddr); ok {
				c.remoteAddr = a.IP.String()
			}
			if !c.record {
				return
			}
			c.gotConn(info.Conn, c.maxCapture)
		},
		WroteRequest: func(httptrace.WroteRequestInfo) {
			c.wrote.Store(int64(time.Since(c.start)))
		},
		GotFirstResponseByte: func() {
			c.firstByte.Store(int64(time.Since(c.start)))
		},
	}
}

// openDeflate handles both forms servers send as "deflate": zlib-wrapped
// (RFC 9110) and raw DEFLATE (common in practice).
func openDeflate(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(2)
	if err == nil && head[0]&0x0f == 8 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
}

// lazyDecoder opens its decoder on the first Read, so a broken header shows
// up as a body read error rather than inside RoundTrip.
type lazyDecoder struct {
	open func() (io.Reader, error)
	r    io.Reader
	err  error
}

func (d *lazyDecoder) Read(p []byte) (int, error) {
	if d.r == nil && d.err == nil {
		d.r, d.err = d.open()
	}
	if d.err != nil {
		return 0, d.err
	}
	return d.r.Read(p)
}

// countReader counts the bytes read from the wire and remembers a read
// error, to tell a broken connection from a broken encoding.
type countReader struct {
	r   io.Reader
	n   int64
	err error // last error other than io.EOF
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

// limitBody reads at most max decoded bytes into the call's body. When
// there is more, it marks the call truncated (or a bomb, if the body is
// compressed and has expanded more than maxRatio times) and stops early,
// without reading the rest.
//
// It reads the whole body on colly's first Read, into one buffer sized
// from Content-Length, and hands colly nothing (EOF, or the error that
// ended the body): colly's own io.ReadAll would otherwise copy every page
// through a buffer it grows by doubling, which was half the bytes the
// crawl allocated. The Fetcher takes the body from the call.
type limitBody struct {
	c        *call
	r        io.Reader
	raw      *countReader
	closer   io.Closer
	max      int64
	maxRatio int64
	encoded  bool
	n        int64
	done     bool
	err      error
}

func (b *limitBody) Read([]byte) (int, error) {
	if !b.done {
		b.done = true
		b.err = b.fill()
	}
	return 0, b.err
}

// fill reads the body into b.c.body; io.EOF once it is complete or cut at
// max.
func (b *limitBody) fill() error {
	size := int64(bodyStartSize)
	if l := b.c.length; l >= 0 && !b.encoded {
		size = l + 1 // room to see EOF without growing
	}
	// A Content-Length is a claim: the first buffer trusts it up to
	// bodyMaxPresize, and grows by doubling as bytes actually arrive.
	size = min(size, b.max+1, bodyMaxPresize)
	var buf []byte
	if int64(cap(b.c.spare)) >= size {
		buf, b.c.spareUsed = b.c.spare[:0], true
	} else {
		buf = make([]byte, 0, size)
	}
	defer func() { b.c.body = buf }()
	for {
		if int64(len(buf)) == b.max {
			// Limit reached: is there more?
			var one [1]byte
			n, err := io.ReadAtLeast(b.r, one[:], 1)
			if n > 0 {
				b.c.truncated = true
				if b.encoded && b.raw.n > 0 && (b.n+1)/b.raw.n > b.maxRatio {
					b.c.bomb = true
				}
			} else if err != nil && err != io.EOF {
				return err
			}
			return io.EOF
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, int(min(int64(cap(buf)), b.max-int64(len(buf)))))
		}
		free := buf[len(buf):min(int64(cap(buf)), b.max)]
		n, err := b.r.Read(free)
		buf = buf[:len(buf)+n]
		b.n += int64(n)
		b.c.bodyBytes = b.n
		if err == io.EOF {
			return io.EOF
		}
		if err != nil {
			if b.encoded && b.raw.err == nil {
				// The wire delivered its bytes; the decoder rejected them.
				b.c.badBody = true
			}
			return err
		}
	}
}

// bodyStartSize is the first buffer for a body of unknown length
// (chunked, or compressed): about a median documentation page.
const bodyStartSize = 32 << 10

// bodyMaxPresize bounds the first buffer a Content-Length may ask for.
const bodyMaxPresize = 1 << 20

// bodySpareMax bounds the released buffer a Fetcher keeps for its next
// body: large enough for nearly every page (documentation pages are
// around 30 KB, a tenth over 100 KB), small enough that a crawl's
// workers hold at most a few MiB between them; the rare larger body is
// left to the garbage collector.
const bodySpareMax = 1 << 20

func (b *limitBody) Close() error { return b.closer.Close() }
