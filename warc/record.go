package warc

import (
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"hash"
	"strconv"
	"strings"
	"time"
)

// Record types (WARC-Type values) this package writes.
const (
	TypeWarcinfo = "warcinfo"
	TypeRequest  = "request"
	TypeResponse = "response"
	TypeRevisit  = "revisit"
)

// Revisit profiles of WARC 1.1, section 6.7.
const (
	ProfileIdenticalPayload  = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
	ProfileServerNotModified = "http://netpreserve.org/warc/1.1/revisit/server-not-modified"
)

// WARC-Truncated values of WARC 1.1, section 5.13: why a record's block
// is not the whole response.
const (
	TruncatedLength      = "length"      // longer than the configured limit
	TruncatedTime        = "time"        // took longer than the configured time
	TruncatedDisconnect  = "disconnect"  // the connection broke off
	TruncatedUnspecified = "unspecified" // another reason, e.g. the crawl stopping
)

// Field is one named field of a WARC record header.
type Field struct {
	Name, Value string
}

// Header is a WARC record header: its fields in file order. Names may
// repeat (WARC-Concurrent-To).
type Header []Field

// Get returns the value of the first field named name (case-insensitive),
// "" if none.
func (h Header) Get(name string) string {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// Values returns every value of the fields named name.
func (h Header) Values(name string) []string {
	var out []string
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			out = append(out, f.Value)
		}
	}
	return out
}

// Digest returns the WARC digest of b: "sha1:" and the SHA-1 in base32,
// the form WARC-Block-Digest and WARC-Payload-Digest carry.
func Digest(b []byte) string {
	sum := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}

// checkDigest reports whether b matches a labelled digest ("sha1:BASE32",
// "sha1:HEX", "sha256:..." likewise). known is false for an algorithm or
// encoding it cannot check.
func checkDigest(b []byte, digest string) (match, known bool) {
	alg, val, ok := strings.Cut(digest, ":")
	if !ok {
		return false, false
	}
	var h hash.Hash
	switch strings.ToLower(alg) {
	case "sha1":
		h = sha1.New()
	case "sha256":
		h = sha256.New()
	default:
		return false, false
	}
	h.Write(b)
	sum := h.Sum(nil)
	switch {
	case len(val) == base32.StdEncoding.EncodedLen(len(sum)):
		return strings.EqualFold(val, base32.StdEncoding.EncodeToString(sum)), true
	case len(val) == hex.EncodedLen(len(sum)):
		return strings.EqualFold(val, hex.EncodeToString(sum)), true
	}
	return false, false
}

// newRecordID returns a fresh "<urn:uuid:...>" (a random, version 4 UUID,
// RFC 9562). crypto/rand rather than an injected *rand.Rand: record IDs
// must be unique across runs and machines, not reproducible.
func newRecordID() string {
	var u [16]byte
	_, _ = rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// warcDate formats t as a WARC-Date (UTC, seconds, ISO 8601).
func warcDate(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// timestamp14 formats t as the 14-digit timestamp of CDX indexes.
func timestamp14(t time.Time) string { return t.UTC().Format("20060102150405") }

// recordEnd is what follows every record block.
const recordEnd = "\r\n\r\n"

// appendRecordHead appends the head of a WARC/1.1 record (version line,
// fields, Content-Length of a block of n bytes, blank line) to dst; the
// block and recordEnd follow it.
func appendRecordHead(dst []byte, h Header, n int) []byte {
	dst = append(dst, "WARC/1.1\r\n"...)
	for _, f := range h {
		dst = append(dst, f.Name...)
		dst = append(dst, ": "...)
		dst = append(dst, f.Value...)
		dst = append(dst, "\r\n"...)
	}
	dst = append(dst, "Content-Length: "...)
	dst = strconv.AppendInt(dst, int64(n), 10)
	return append(dst, "\r\n\r\n"...)
}
