package storage

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// bktOwed holds the refetches a paced recrawl cycle owes (package recrawl:
// a known page traversed ahead of the refresh pace, its refetch made
// later in the cycle): u32 cycle | u64 page id → f64 weight bits | u64
// order owed. Optional like the sitemap buckets: created by the first
// commit that owes a refetch, read as empty when absent. The recrawl puts
// and deletes entries in the batch that holds the traversal or refetch,
// so after kill -9 the stored entries match the stored pages and frontier,
// and at most the cycle's refresh cap of them exist at once.
var bktOwed = []byte("owed")

// Owed is a refetch a recrawl cycle owes page ID: Weight orders the owed
// refetches (largest first), Seq is the order they were owed in (ties).
type Owed struct {
	ID     uint64
	Weight float64
	Seq    uint64
}

// owedKey is a key of bktOwed.
type owedKey struct {
	cycle uint32
	id    uint64
}

// owedWrites are a Batch's writes to bktOwed: a put, or a delete (del).
type owedWrites map[owedKey]owedWrite

type owedWrite struct {
	o   Owed
	del bool
}

// PutOwed stores that cycle owes the refetch o (o.ID's entry of the cycle
// is replaced). Last call for a key wins.
func (b *Batch) PutOwed(cycle uint32, o Owed) {
	if b.owed == nil {
		b.owed = owedWrites{}
	}
	b.owed[owedKey{cycle, o.ID}] = owedWrite{o: o}
}

// DeleteOwed removes the refetch cycle owes page id, if stored.
func (b *Batch) DeleteOwed(cycle uint32, id uint64) {
	if b.owed == nil {
		b.owed = owedWrites{}
	}
	b.owed[owedKey{cycle, id}] = owedWrite{del: true}
}

// owedKeyBytes encodes k: fixed-width big-endian, so one cycle's entries
// are a contiguous, id-ordered range.
func owedKeyBytes(dst []byte, k owedKey) []byte {
	dst = binary.BigEndian.AppendUint32(dst, k.cycle)
	return binary.BigEndian.AppendUint64(dst, k.id)
}

// putOwed writes the batch's owed refetches, in key order.
func (c *committer) putOwed() error {
	w := c.b.owed
	if len(w) == 0 {
		return nil
	}
	keys := make([]owedKey, 0, len(w))
	puts := false
	for k, x := range w {
		keys = append(keys, k)
		if x.del {
			continue
		}
		puts = true
		if k.id >= c.limit {
			return fmt.Errorf("owed refetch of page %d (next id %d): %w", k.id, c.limit, ErrUnknownID)
		}
		if math.IsNaN(x.o.Weight) || math.IsInf(x.o.Weight, 0) {
			return fmt.Errorf("owed refetch of page %d: weight %g: %w", k.id, x.o.Weight, ErrBadRecord)
		}
	}
	bk := c.tx.Bucket(bktOwed)
	if bk == nil && puts {
		var err error
		if bk, err = c.tx.CreateBucketIfNotExists(bktOwed); err != nil {
			return fmt.Errorf("create bucket %s: %w", bktOwed, err)
		}
	}
	if bk == nil {
		return nil // deletes only, and nothing was ever owed
	}
	slices.SortFunc(keys, func(a, b owedKey) int {
		if c := cmp.Compare(a.cycle, b.cycle); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	for _, k := range keys {
		x := w[k]
		c.room(12 + 16)
		key := c.take(owedKeyBytes(c.arena, k))
		if x.del {
			if err := bk.Delete(key); err != nil {
				return fmt.Errorf("delete owed refetch %d of cycle %d: %w", k.id, k.cycle, err)
			}
			continue
		}
		v := binary.BigEndian.AppendUint64(c.arena, math.Float64bits(x.o.Weight))
		v = c.take(binary.BigEndian.AppendUint64(v, x.o.Seq))
		if err := bk.Put(key, v); err != nil {
			return fmt.Errorf("put owed refetch %d of cycle %d: %w", k.id, k.cycle, err)
		}
	}
	return nil
}

// Owed returns the refetches stored as owed by cycle, in the order they
// were owed (Seq). They number at most the cycle's refresh cap, so one
// read transaction reads them all.
func (db *DB) Owed(cycle uint32) ([]Owed, error) {
	var out []Owed
	err := db.viewBucket(bktOwed, func(bk *bolt.Bucket) error {
		prefix := binary.BigEndian.AppendUint32(nil, cycle)
		c := bk.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			if len(k) != 12 || len(v) != 16 {
				return db.corrupt(fmt.Errorf("owed refetch of %d+%d bytes: %w", len(k), len(v), ErrBadRecord), "owed key %x", k)
			}
			out = append(out, Owed{ID: getU64(k[4:]), Weight: math.Float64frombits(getU64(v)), Seq: getU64(v[8:])})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: owed refetches of cycle %d: %w", cycle, err)
	}
	slices.SortFunc(out, func(a, b Owed) int { return cmp.Compare(a.Seq, b.Seq) })
	return out, nil
}
