package storage

import (
	"fmt"
	"math"

	bolt "go.etcd.io/bbolt"
)

// currentCycle stands for "the latest version" in link version filters.
const currentCycle = ^uint32(0)

// Nodes returns the number of committed pages; node ids are 0..n-1. With
// EachNode and EachOut it makes DB a graph.Stream over the current link
// graph. Each of the three reads the latest commit in its own read
// transaction, so while a crawl in this process commits use Graph, which
// pins the node count, instead.
func (db *DB) Nodes() (int, error) {
	n, err := db.committedCount()
	if err != nil {
		return 0, err
	}
	return int(n), nil
}

// EachNode calls fn for every committed page in id order with its URL.
func (db *DB) EachNode(fn func(id uint32, url string) error) error {
	return db.eachNode(math.MaxUint64, fn)
}

// EachOut calls fn once per page with out-links, in increasing id order,
// with its current targets in document order. dsts is only valid during the
// call.
func (db *DB) EachOut(fn func(src uint32, dsts []uint32) error) error {
	return db.eachOut(currentCycle, math.MaxUint64, fn)
}

// NodeFlags returns, indexed by page id, whether each page was fetched
// (Status.Fetched) and whether it was novel (Page.Novel: it was the first
// page stored with its content hash), in one pass over the page records.
func (db *DB) NodeFlags() (fetched, novel []bool, err error) {
	g, err := db.Graph()
	if err != nil {
		return nil, nil, err
	}
	return g.NodeFlags()
}

// View is a graph.Stream over the link graph at a fixed node count: the
// current graph (DB.Graph) or the graph as of a cycle (DB.AsOf).
type View struct {
	db    *DB
	cycle uint32 // newest link version used; currentCycle for the latest
	n     uint64 // node count
}

// Graph returns a View of the current graph over the pages committed now.
// Arcs stored later to pages beyond that count are left out, so it stays a
// consistent graph.Stream while the crawl goes on committing.
func (db *DB) Graph() (*View, error) {
	n, err := db.committedCount()
	if err != nil {
		return nil, err
	}
	return &View{db: db, cycle: currentCycle, n: n}, nil
}

// AsOf returns a View of the graph as of the end of cycle (seedcrawl export
// --cycle N): the pages interned by then, each with its link list as of its
// last fetch at or before that cycle. ErrNotFound if the cycle never
// committed anything.
func (db *DB) AsOf(cycle uint32) (*View, error) {
	var n uint64
	err := db.view(func(tx *bolt.Tx) error {
		v := tx.Bucket(bktCycleStats).Get(u32key(cycle))
		if v == nil {
			return ErrNotFound
		}
		s, err := decodeCycleStats(v)
		if err != nil {
			return db.corrupt(err, "cycle stats %d", cycle)
		}
		n = s.NextID
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: graph as of cycle %d: %w", cycle, err)
	}
	return &View{db: db, cycle: cycle, n: n}, nil
}

// Cycle returns the cycle the view is as of, 0 for the current graph.
func (v *View) Cycle() uint32 {
	if v.cycle == currentCycle {
		return 0
	}
	return v.cycle
}

// Nodes returns the view's node count.
func (v *View) Nodes() (int, error) { return int(v.n), nil }

// EachNode calls fn for every page of the view in id order with its URL.
func (v *View) EachNode(fn func(id uint32, url string) error) error {
	return v.db.eachNode(v.n, fn)
}

// EachOut calls fn once per page of the view with out-links, in increasing
// id order, with its targets in document order; targets outside the view
// are left out. dsts is only valid during the call.
func (v *View) EachOut(fn func(src uint32, dsts []uint32) error) error {
	return v.db.eachOut(v.cycle, v.n, fn)
}

// NodeFlags returns, indexed by node id, whether each page was fetched and
// novel as of the view: from the page records for the current graph, from
// the fetch history of cycles up to the view's for a past cycle.
func (v *View) NodeFlags() (fetched, novel []bool, err error) {
	fetched = make([]bool, v.n)
	novel = make([]bool, v.n)
	cur := v.db.Cycle()
	if v.cycle == currentCycle || v.cycle >= cur {
		err = v.db.view(func(tx *bolt.Tx) error {
			c := tx.Bucket(bktPages).Cursor()
			for k, val := c.First(); k != nil; k, val = c.Next() {
				id := getU64(k)
				if id >= v.n {
					break
				}
				st, nv, err := pageFlags(val)
				if err != nil {
					return v.db.corrupt(err, "page %d", id)
				}
				fetched[id] = st.Fetched()
				novel[id] = nv && st.Fetched()
			}
			return nil
		})
	} else {
		err = v.historyFlags(fetched, novel)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("storage: node flags: %w", err)
	}
	return fetched, novel, nil
}

// historyFlags replays the fetch records of cycles 1..v.cycle: the last
// record of a page decides. A page is novel if its hash's first page (the
// hashes bucket, fixed once written) is itself.
func (v *View) historyFlags(fetched, novel []bool) error {
	return v.db.view(func(tx *bolt.Tx) error {
		hashes := tx.Bucket(bktHashes)
		c := tx.Bucket(bktFetches).Cursor()
		for k, val := c.First(); k != nil && getU32(k) <= v.cycle; k, val = c.Next() {
			id := getU64(k[4:])
			if id >= v.n {
				continue
			}
			r, err := decodeFetch(getU32(k), id, val)
			if err != nil {
				return v.db.corrupt(err, "fetch %d/%d", getU32(k), id)
			}
			switch {
			case r.Status.Fetched():
				fetched[id] = true
				var kb [hashBytes + 1]byte
				first := hashes.Get(hashKey(kb[:0], r.Hash))
				novel[id] = !r.Hash.IsZero() && len(first) == 8 && getU64(first) == id
			case r.Status == StatusFetchError:
				// a failed refetch leaves the page as it was
			default:
				fetched[id], novel[id] = false, false
			}
		}
		return nil
	})
}

func (db *DB) committedCount() (uint64, error) {
	var n uint64
	err := db.view(func(tx *bolt.Tx) error {
		v := tx.Bucket(bktMeta).Get(keyNextID)
		if len(v) != 8 {
			return fmt.Errorf("%w: %s: meta next_id missing", ErrCorrupt, db.path)
		}
		n = getU64(v)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("storage: count nodes: %w", err)
	}
	if n > math.MaxUint32+1 {
		return 0, fmt.Errorf("storage: %d pages do not fit uint32 node ids", n)
	}
	return n, nil
}

func (db *DB) eachNode(limit uint64, fn func(id uint32, url string) error) error {
	err := db.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bktPages).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			id := getU64(k)
			if id >= limit {
				break
			}
			if id > math.MaxUint32 {
				return fmt.Errorf("page %d does not fit a uint32 node id", id)
			}
			u, err := pageURL(v)
			if err != nil {
				return db.corrupt(err, "page %d", id)
			}
			s := string(u)
			if err := callback(func() error { return fn(uint32(id), s) }); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: each node: %w", err)
	}
	return nil
}

func (db *DB) eachOut(cycle uint32, limit uint64, fn func(src uint32, dsts []uint32) error) error {
	var buf []uint32
	err := db.eachLinkVersion(cycle, limit, func(src uint64, v []byte) error {
		var fits bool
		var err error
		buf, fits, err = decodeTargets(buf[:0], src, v)
		if err != nil {
			return db.corrupt(err, "links of %d", src)
		}
		if !fits || src > math.MaxUint32 {
			return fmt.Errorf("links of %d: id does not fit a uint32 node id", src)
		}
		if limit != math.MaxUint64 {
			out := buf[:0]
			for _, d := range buf {
				if uint64(d) < limit {
					out = append(out, d)
				}
			}
			buf = out
		}
		if len(buf) == 0 {
			return nil
		}
		return callback(func() error { return fn(uint32(src), buf) })
	})
	if err != nil {
		return fmt.Errorf("storage: each out: %w", err)
	}
	return nil
}
