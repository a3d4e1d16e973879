package cluster

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
)

// URL is one URL handed from the node that discovered it to the node that
// owns its host.
type URL struct {
	// URL is normalized (urlnorm.Normalize): its hash is the message id.
	URL string
	// Depth is the link depth at the discoverer (seeds 0).
	Depth int
	// Mass is the priority share the scheduler gave the URL as an
	// out-link of the discovering page (FPR: d·f/N_p), or, for a URL moved
	// with its host to a new owner, its priority there.
	Mass float64
	// Known marks a URL its host's previous owner has settled (fetched,
	// rejected, denied): the new owner records it as seen and never
	// queues it, so it is not fetched twice.
	Known bool
}

// The first byte of a URL message is its kind (so the format can grow):
// payloadVersion for a URL to queue, payloadKnown for one only to record
// as seen. Both continue with the same fields.
const (
	payloadVersion = 1
	payloadKnown   = 2
)

// maxPayloadURL bounds the URL of a message: storage refuses longer keys.
const maxPayloadURL = 32 << 10

// encode appends the message body of u: version, depth (uvarint), mass
// (8 bytes, IEEE 754 big endian), URL bytes.
func (u URL) encode(dst []byte) []byte {
	kind := byte(payloadVersion)
	if u.Known {
		kind = payloadKnown
	}
	dst = append(dst, kind)
	dst = binary.AppendUvarint(dst, uint64(max(u.Depth, 0)))
	dst = binary.BigEndian.AppendUint64(dst, math.Float64bits(u.Mass))
	return append(dst, u.URL...)
}

// decodeURL parses a message body made by encode.
func decodeURL(b []byte) (URL, error) {
	if len(b) == 0 || b[0] != payloadVersion && b[0] != payloadKnown {
		return URL{}, fmt.Errorf("%w: version byte %v", ErrPayload, b[:min(len(b), 1)])
	}
	d, n := binary.Uvarint(b[1:])
	if n <= 0 || d > math.MaxInt32 {
		return URL{}, fmt.Errorf("%w: depth", ErrPayload)
	}
	rest := b[1+n:]
	if len(rest) < 8 {
		return URL{}, fmt.Errorf("%w: short mass", ErrPayload)
	}
	mass := math.Float64frombits(binary.BigEndian.Uint64(rest))
	u := string(rest[8:])
	if math.IsNaN(mass) || math.IsInf(mass, 0) || mass < 0 {
		return URL{}, fmt.Errorf("%w: mass %v", ErrPayload, mass)
	}
	if u == "" || len(u) > maxPayloadURL {
		return URL{}, fmt.Errorf("%w: URL of %d bytes", ErrPayload, len(u))
	}
	return URL{URL: u, Depth: int(d), Mass: mass, Known: b[0] == payloadKnown}, nil
}

// MsgID returns the JetStream message id of a contribution: the first 16
// bytes of the SHA-256 of url and from (which names the node and page that
// gave it), in hex. A contribution published again (a page refetched
// after a crash) has the same id, so the stream stores it once within its
// duplicate window.
func MsgID(url, from string) string {
	h := sha256.New()
	h.Write([]byte(url))
	h.Write([]byte{0})
	h.Write([]byte(from))
	var s [sha256.Size]byte
	return hex.EncodeToString(h.Sum(s[:0])[:16])
}
