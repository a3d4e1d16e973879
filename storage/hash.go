package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/zeebo/xxh3"
	bolt "go.etcd.io/bbolt"
)

// HashKind says which function made a content Hash. The values are
// stored on disk (in page and fetch records and the hashes bucket): new
// ones are only ever appended.
type HashKind uint8

// Hash kinds.
const (
	// HashNone is the kind of the zero Hash: no content hash.
	HashNone HashKind = iota
	// HashSHA256 is the first 16 bytes of SHA-256: every hash stored
	// before HashXXH3 existed, so older dbs read back as this kind.
	HashSHA256
	// HashXXH3 is XXH3-128, what HashOf computes. It costs about a
	// twentieth of SHA-256 per byte even where SHA-256 runs on the CPU's
	// SHA extensions, and content hashing was most of the CPU a page's
	// storage took. It is not a cryptographic hash: a site can craft two
	// of its pages with the same hash, which costs it only a change or a
	// duplicate the crawl does not see; it cannot make another site's
	// page look like a duplicate without knowing that page's bytes first.
	HashXXH3

	numHashKinds
)

var hashKindNames = [numHashKinds]string{"none", "sha256", "xxh3"}

// String returns the kind name, e.g. "xxh3".
func (k HashKind) String() string {
	if k < numHashKinds {
		return hashKindNames[k]
	}
	return fmt.Sprintf("hashkind(%d)", uint8(k))
}

// Hash is a content hash: 16 bytes and the kind of function that made
// them. The zero Hash means "no content hash". Two hashes are equal (==)
// only when both their kinds and their bytes are; hashes of different
// kinds say nothing about whether the contents are equal (see Same).
type Hash struct {
	kind HashKind
	sum  [16]byte
}

// HashOf returns the content hash of body, of kind HashXXH3.
func HashOf(body []byte) Hash { return HashXXH3.Of(body) }

// Of returns the content hash of body made by kind k: HashXXH3 or
// HashSHA256 (the kind of an older db, for comparing with its hashes).
// Any other kind gives the zero Hash.
func (k HashKind) Of(body []byte) Hash {
	h := Hash{kind: k}
	switch k {
	case HashXXH3:
		s := xxh3.Hash128(body).Bytes()
		h.sum = s
	case HashSHA256:
		s := sha256.Sum256(body)
		copy(h.sum[:], s[:])
	default:
		return Hash{}
	}
	return h
}

// HashesOf returns the hashes to store with a fetch of body (Fetch.Hash
// and Fetch.OlderHash) for a page whose stored hash is prev. hash is
// body's HashOf, or prev itself when prev is of another kind (an older
// build's) and body hashes to it that way: hashes of different kinds never
// compare equal, so an unchanged page would otherwise count as changed on
// its first fetch after an upgrade. older, when hash is not HashSHA256 and
// olderKinds is set (the db holds SHA-256 hashes, DB.OlderHashes), is
// body's SHA-256 hash, so Commit sees that a page stored before the
// upgrade has the same content; it costs a SHA-256 of every body, only in
// such a db.
func HashesOf(body []byte, prev Hash, olderKinds bool) (hash, older Hash) {
	hash = HashOf(body)
	var sha Hash // body's SHA-256, computed once for both uses
	if olderKinds || prev.Kind() == HashSHA256 {
		sha = HashSHA256.Of(body)
	}
	if k := prev.Kind(); !prev.IsZero() && k != hash.Kind() {
		same := sha
		if k != HashSHA256 {
			same = k.Of(body)
		}
		if same == prev {
			return prev, Hash{}
		}
	}
	if olderKinds {
		older = sha
	}
	return hash, older
}

// Kind returns the function that made h; HashNone for the zero Hash.
func (h Hash) Kind() HashKind { return h.kind }

// IsZero reports whether h is the zero Hash.
func (h Hash) IsZero() bool { return h.kind == HashNone }

// Same reports whether h and o are hashes of the same content: known is
// false when either is zero or they are of different kinds, since then
// the hashes cannot tell (a page last hashed by an older build with
// SHA-256 and now with XXH3).
func (h Hash) Same(o Hash) (same, known bool) {
	if h.IsZero() || o.IsZero() || h.kind != o.kind {
		return false, false
	}
	return h.sum == o.sum, true
}

// String returns h in hex, or "" for the zero Hash. A HashSHA256 hash is
// 32 hex digits, as exported before other kinds existed; any other kind
// is prefixed with its name and a colon ("xxh3:…"), so hashes of
// different kinds never print alike.
func (h Hash) String() string {
	switch h.kind {
	case HashNone:
		return ""
	case HashSHA256:
		return hex.EncodeToString(h.sum[:])
	}
	return h.kind.String() + ":" + hex.EncodeToString(h.sum[:])
}

// hashBytes is how many bytes a Hash's sum takes on disk.
const hashBytes = 16

// hashKey returns the hashes bucket key of h appended to dst: the 16
// bytes alone for HashSHA256, as older dbs stored them, and the kind
// byte then the 16 bytes for other kinds, so keys of different kinds
// never collide and older builds, which look up 16-byte keys, never
// mistake a newer kind's key for theirs.
func hashKey(dst []byte, h Hash) []byte {
	if h.kind != HashSHA256 {
		dst = append(dst, byte(h.kind))
	}
	return append(dst, h.sum[:]...)
}

// hashFromDisk builds the Hash of kind k from its stored bytes; kind
// HashNone (a corrupt record) gives the zero Hash. A kind this build does not know, written by a newer one, is kept
// as it is: such a hash equals only itself, and Same calls it unknown
// against any other kind. A sum cut short (a corrupt record, which the
// decoder reports) gives the zero Hash.
func hashFromDisk(k HashKind, sum []byte) Hash {
	if k == HashNone || len(sum) != hashBytes {
		return Hash{}
	}
	h := Hash{kind: k}
	copy(h.sum[:], sum)
	return h
}

// OlderHashes reports whether the db holds content hashes of kind
// HashSHA256, stored by a build older than HashXXH3: a crawl then gives
// Fetch.OlderHash (HashesOf) so that a page with the content of one of
// them is seen as a duplicate. It reads the hashes bucket's ends and the
// first key past the current kind's prefix, not every key: SHA-256 keys
// are 16 random bytes and every other kind's start with its kind byte, so
// the db's SHA-256 hashes escape notice only if every one of them starts
// with the byte of HashXXH3 (a chance of 1 in 256 per hash, 1 in 65536
// for two).
func (db *DB) OlderHashes() (bool, error) {
	older := false
	err := db.viewBucket(bktHashes, func(b *bolt.Bucket) error {
		cur := b.Cursor()
		first, _ := cur.First()
		last, _ := cur.Last()
		past, _ := cur.Seek([]byte{byte(HashXXH3) + 1})
		for _, k := range [][]byte{first, last, past} {
			if len(k) == hashBytes {
				older = true
			}
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("storage: look for older content hashes: %w", err)
	}
	return older, nil
}
