package warc

import (
	"bytes"
	"mime"
	"strconv"
	"strings"
)

// httpMessage is what the writer needs from an HTTP/1.x message: its head
// (start line and headers, blank line included), its status code for a
// response, a few headers and its payload (the entity body: chunked
// transfer coding removed, content coding kept).
type httpMessage struct {
	head        []byte
	status      int
	contentType string // media type, lower-case, no parameters
	payload     []byte
	ok          bool // the head parsed
}

// parseHTTP parses msg leniently: a message whose head does not parse is
// still archived, only without a payload digest.
func parseHTTP(msg []byte) httpMessage {
	var m httpMessage
	end, sep := bytes.Index(msg, []byte("\r\n\r\n")), 4
	if end < 0 {
		end, sep = bytes.Index(msg, []byte("\n\n")), 2
	}
	complete := end >= 0
	if !complete {
		// A head cut short: its status and headers so far still describe
		// the record, but there is no payload.
		end, sep = len(msg), 0
	}
	m.head = msg[:end+sep]
	body := msg[end+sep:]
	lines := strings.Split(strings.ReplaceAll(string(msg[:end]), "\r\n", "\n"), "\n")
	if f := strings.Fields(lines[0]); len(f) >= 2 && strings.HasPrefix(f[0], "HTTP/") {
		m.status, _ = strconv.Atoi(f[1])
	}
	chunked := false
	for _, l := range lines[1:] {
		name, value, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "content-type":
			if mt, _, err := mime.ParseMediaType(value); err == nil {
				m.contentType = mt
			} else {
				mt, _, _ := strings.Cut(value, ";")
				m.contentType = strings.ToLower(strings.TrimSpace(mt))
			}
		case "transfer-encoding":
			chunked = strings.Contains(strings.ToLower(value), "chunked")
		}
	}
	if !complete {
		return m
	}
	m.payload = body
	if chunked {
		if p, ok := dechunk(body); ok {
			m.payload = p
		}
	}
	m.ok = true
	return m
}

// dechunk removes the chunked transfer coding (RFC 9112 section 7.1). A
// body cut short decodes as far as it goes; ok is false if the framing is
// broken, and the caller then keeps the raw body.
func dechunk(b []byte) (_ []byte, ok bool) {
	out := make([]byte, 0, len(b))
	for len(b) > 0 {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return out, true // cut inside a size line
		}
		line := strings.TrimSpace(string(b[:nl]))
		if i := strings.IndexByte(line, ';'); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		n, err := strconv.ParseUint(line, 16, 63)
		if err != nil {
			return nil, false
		}
		b = b[nl+1:]
		if n == 0 {
			return out, true // trailers follow; not payload
		}
		if uint64(len(b)) < n {
			return append(out, b...), true
		}
		out = append(out, b[:n]...)
		b = bytes.TrimPrefix(b[n:], []byte("\r"))
		b = bytes.TrimPrefix(b, []byte("\n"))
	}
	return out, true
}
