package storage

import (
	"encoding/binary"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// Reads of a few pages out of many, for planning a recrawl cycle by its
// budget rather than by the size of the db: one read transaction, keys
// visited in order.

// EachPageOf calls fn with the record of each page in ids that exists, in
// id order, in one read transaction (ids need not be sorted; duplicates
// are visited once). p is reused between calls: copy it to keep it.
func (db *DB) EachPageOf(ids []uint64, fn func(p *Page) error) error {
	sorted := slices.Compact(slices.Sorted(slices.Values(ids)))
	var p Page
	err := db.view(func(tx *bolt.Tx) error {
		bk := tx.Bucket(bktPages)
		var key [8]byte
		for _, id := range sorted {
			v := bk.Get(binary.BigEndian.AppendUint64(key[:0], id))
			if v == nil {
				continue
			}
			if err := db.yieldPage(id, v, &p, fn); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: %d pages: %w", len(sorted), err)
	}
	return nil
}

// EachHistoryOf calls fn with the fetch records of cycles 1..last of each
// page in ids (oldest first; pages never fetched in them are skipped), in
// id order, in one read transaction: one seek per page and cycle, so the
// cost follows len(ids) × cycles, not the number of fetches stored.
func (db *DB) EachHistoryOf(ids []uint64, last uint32, fn func(id uint64, recs []FetchRecord) error) error {
	sorted := slices.Compact(slices.Sorted(slices.Values(ids)))
	hist := make([][]FetchRecord, len(sorted))
	err := db.view(func(tx *bolt.Tx) error {
		cur := tx.Bucket(bktFetches).Cursor()
		var key [12]byte
		for c := uint32(1); c <= last && c != 0; c++ {
			// Visit the cycles present only.
			k, _ := cur.Seek(u32key(c))
			if k == nil {
				break
			}
			if getU32(k) != c {
				if getU32(k) > last {
					break
				}
				c = getU32(k)
			}
			for i, id := range sorted {
				kk, v := cur.Seek(fetchKey(key[:0], c, id))
				if kk == nil || getU32(kk) != c {
					break // past the cycle: no later id of it is stored
				}
				if getU64(kk[4:]) != id {
					continue
				}
				r, err := decodeFetch(c, id, v)
				if err != nil {
					return db.corrupt(err, "fetch %d/%d", c, id)
				}
				hist[i] = append(hist[i], r)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: fetch history of %d pages: %w", len(sorted), err)
	}
	for i, id := range sorted {
		if len(hist[i]) == 0 {
			continue
		}
		if err := fn(id, hist[i]); err != nil {
			return err
		}
	}
	return nil
}
