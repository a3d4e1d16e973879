package storage

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Page returns the committed record of page id (ErrNotFound if none).
func (db *DB) Page(id uint64) (Page, error) {
	var p Page
	err := db.view(func(tx *bolt.Tx) error {
		v := tx.Bucket(bktPages).Get(u64key(id))
		if v == nil {
			return ErrNotFound
		}
		return db.corrupt(decodePage(id, v, &p), "page %d", id)
	})
	if err != nil {
		return Page{}, fmt.Errorf("storage: page %d: %w", id, err)
	}
	return p, nil
}

// PageByURL returns the committed record of the page with URL u
// (ErrNotFound if none).
func (db *DB) PageByURL(u string) (Page, error) {
	var p Page
	err := db.view(func(tx *bolt.Tx) error {
		if u == "" || len(u) > MaxURLLen {
			return ErrNotFound
		}
		idv := tx.Bucket(bktURLs).Get(keyOf(u))
		if len(idv) != 8 {
			return ErrNotFound
		}
		id := getU64(idv)
		v := tx.Bucket(bktPages).Get(idv)
		if v == nil {
			return fmt.Errorf("%w: %s: url maps to page %d without record", ErrCorrupt, db.path, id)
		}
		return db.corrupt(decodePage(id, v, &p), "page %d", id)
	})
	if err != nil {
		return Page{}, fmt.Errorf("storage: page %q: %w", u, err)
	}
	return p, nil
}

// EachPage calls fn with every page record in id order, in one read
// transaction. p is reused between calls: copy it to keep it.
func (db *DB) EachPage(fn func(p *Page) error) error {
	var p Page
	err := db.view(func(tx *bolt.Tx) error {
		cur := tx.Bucket(bktPages).Cursor()
		for k, v := cur.First(); k != nil; k, v = cur.Next() {
			if err := db.yieldPage(getU64(k), v, &p, fn); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: each page: %w", err)
	}
	return nil
}

// yieldPage decodes the record v of page id into p and calls fn with it,
// for EachPage and EachPageOf. A record that does not decode is corruption.
func (db *DB) yieldPage(id uint64, v []byte, p *Page, fn func(p *Page) error) error {
	if err := decodePage(id, v, p); err != nil {
		return db.corrupt(err, "page %d", id)
	}
	return callback(func() error { return fn(p) })
}

// Links returns the current out-links of page src in document order (nil if
// it has none).
func (db *DB) Links(src uint64) ([]Link, error) {
	var out []Link
	err := db.view(func(tx *bolt.Tx) (err error) {
		out, err = db.currentLinks(tx, src)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: links of %d: %w", src, err)
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// currentLinks decodes the newest stored out-links of page src in tx (nil
// if it has none).
func (db *DB) currentLinks(tx *bolt.Tx, src uint64) ([]Link, error) {
	k, v := latestLinks(tx.Bucket(bktLinks).Cursor(), src, ^uint32(0))
	if k == nil {
		return nil, nil
	}
	links, err := decodeLinks(nil, src, v)
	return links, db.corrupt(err, "links of %d", src)
}

// latestLinks returns the newest link list version of src at or before
// cycle, or nil.
func latestLinks(cur *bolt.Cursor, src uint64, cycle uint32) ([]byte, []byte) {
	var seek [12]byte
	k, v := cur.Seek(linkKey(seek[:0], src, cycle))
	if k != nil && getU64(k) == src && getU32(k[8:]) == cycle {
		return k, v
	}
	if k == nil {
		k, v = cur.Last()
	} else {
		k, v = cur.Prev()
	}
	if k == nil || len(k) != 12 || getU64(k) != src {
		return nil, nil
	}
	return k, v
}

// EachLink calls fn once per page with current out-links, in increasing
// source order, with its links in document order. links is valid only
// during the call.
func (db *DB) EachLink(fn func(src uint64, links []Link) error) error {
	var buf []Link
	err := db.eachLinkVersion(^uint32(0), ^uint64(0), func(src uint64, v []byte) error {
		var err error
		buf, err = decodeLinks(buf[:0], src, v)
		if err != nil {
			return db.corrupt(err, "links of %d", src)
		}
		if len(buf) == 0 {
			return nil
		}
		return callback(func() error { return fn(src, buf) })
	})
	if err != nil {
		return fmt.Errorf("storage: each link: %w", err)
	}
	return nil
}

// eachLinkVersion makes one cursor pass over the links bucket and calls fn
// with the newest version at or before cycle of every source below limit.
func (db *DB) eachLinkVersion(cycle uint32, limit uint64, fn func(src uint64, v []byte) error) error {
	return db.view(func(tx *bolt.Tx) error {
		cur := tx.Bucket(bktLinks).Cursor()
		var (
			have bool
			src  uint64
			val  []byte // values stay valid for the whole read transaction
		)
		for k, v := cur.First(); k != nil; k, v = cur.Next() {
			if len(k) != 12 {
				return fmt.Errorf("%w: %s: links key of %d bytes", ErrCorrupt, db.path, len(k))
			}
			s := getU64(k)
			if s >= limit {
				break
			}
			if have && s != src {
				if err := fn(src, val); err != nil {
					return err
				}
				have = false
			}
			if getU32(k[8:]) <= cycle {
				have, src, val = true, s, v
			}
		}
		if have {
			return fn(src, val)
		}
		return nil
	})
}

// LoadFrontier calls fn with every stored frontier entry in id order, URL
// filled in from the page record, in one read transaction (for resume).
func (db *DB) LoadFrontier(fn func(e Entry) error) error {
	err := db.view(func(tx *bolt.Tx) error {
		pages := tx.Bucket(bktPages).Cursor()
		cur := tx.Bucket(bktFrontier).Cursor()
		for k, v := cur.First(); k != nil; k, v = cur.Next() {
			id := getU64(k)
			e, err := decodeEntry(id, v)
			if err != nil {
				return db.corrupt(err, "frontier entry %d", id)
			}
			pk, pv := pages.Seek(k)
			if pk == nil || getU64(pk) != id {
				return fmt.Errorf("%w: %s: frontier entry %d has no page record", ErrCorrupt, db.path, id)
			}
			u, err := pageURL(pv)
			if err != nil {
				return db.corrupt(err, "page %d", id)
			}
			e.URL = string(u)
			if err := callback(func() error { return fn(e) }); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: load frontier: %w", err)
	}
	return nil
}

// State returns the named state blob (nil if none was stored).
func (db *DB) State(name string) ([]byte, error) {
	var out []byte
	err := db.view(func(tx *bolt.Tx) error {
		if name == "" {
			return nil
		}
		if v := tx.Bucket(bktState).Get(keyOf(name)); v != nil {
			out = append([]byte{}, v...)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: state %q: %w", name, err)
	}
	return out, nil
}

// SchedulerState is State(StateScheduler).
func (db *DB) SchedulerState() ([]byte, error) { return db.State(StateScheduler) }

// Host returns the stored state of host; ok is false if none is stored.
func (db *DB) Host(name string) (Host, bool, error) {
	h, ok, err := lookupNamed(db, bktHosts, name, "host", func(v []byte) (Host, error) { return decodeHost(name, v) })
	if err != nil {
		return Host{}, false, fmt.Errorf("storage: host %q: %w", name, err)
	}
	return h, ok, nil
}

// lookupNamed reads the record stored under name in bucket bkt and
// decodes it; ok is false if none is stored or name is empty. A record
// that does not decode is ErrCorrupt, naming it as what and name.
func lookupNamed[T any](db *DB, bkt []byte, name, what string, decode func(v []byte) (T, error)) (x T, ok bool, err error) {
	err = db.view(func(tx *bolt.Tx) error {
		if name == "" {
			return nil
		}
		v := tx.Bucket(bkt).Get(keyOf(name))
		if v == nil {
			return nil
		}
		ok = true
		var derr error
		if x, derr = decode(v); derr != nil {
			// Only here: the arguments would cost an allocation per read.
			return db.corrupt(derr, "%s %q", what, name)
		}
		return nil
	})
	return x, ok, err
}

// EachHost calls fn with every stored host in name order.
func (db *DB) EachHost(fn func(h Host) error) error {
	err := db.view(func(tx *bolt.Tx) error {
		cur := tx.Bucket(bktHosts).Cursor()
		for k, v := cur.First(); k != nil; k, v = cur.Next() {
			h, err := decodeHost(string(k), v)
			if err != nil {
				return db.corrupt(err, "host %q", k)
			}
			if err := callback(func() error { return fn(h) }); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: each host: %w", err)
	}
	return nil
}

// LoadRobots returns the cached robots.txt of host; ok is false if none is
// stored. The crawl loop adapts it to package robots' store interface.
func (db *DB) LoadRobots(host string) (Robots, bool, error) {
	r, ok, err := lookupNamed(db, bktRobots, host, "robots of", decodeRobots)
	if err != nil {
		return Robots{}, false, fmt.Errorf("storage: load robots %q: %w", host, err)
	}
	return r, ok, nil
}

// SaveRobots stores the robots.txt of host in its own transaction: robots
// entries are a cache (losing one refetches it), so they do not wait for
// the next batch.
func (db *DB) SaveRobots(host string, r Robots) error {
	if host == "" {
		return fmt.Errorf("storage: save robots: empty host")
	}
	v := encodeRobots(nil, &r)
	err := db.update(func(tx *bolt.Tx) error {
		return tx.Bucket(bktRobots).Put([]byte(host), v)
	})
	if err != nil {
		return fmt.Errorf("storage: save robots %q: %w", host, err)
	}
	return nil
}

// StartRun stores a new run record (ID assigned, End zero) in its own
// transaction and returns it. Update it through Batch.PutRun.
func (db *DB) StartRun(start time.Time, command, config string) (Run, error) {
	r := Run{Start: start, Command: command, Config: config, Counters: map[string]uint64{}}
	err := db.update(func(tx *bolt.Tx) error {
		m := tx.Bucket(bktMeta)
		r.ID = getU64(m.Get(keyNextRun)) + 1
		if err := m.Put(keyNextRun, u64key(r.ID)); err != nil {
			return err
		}
		return tx.Bucket(bktRuns).Put(u64key(r.ID), encodeRun(nil, &r))
	})
	if err != nil {
		return Run{}, fmt.Errorf("storage: start run: %w", err)
	}
	return r, nil
}

// Runs returns every run in start order.
func (db *DB) Runs() ([]Run, error) {
	var out []Run
	err := db.view(func(tx *bolt.Tx) error {
		cur := tx.Bucket(bktRuns).Cursor()
		for k, v := cur.First(); k != nil; k, v = cur.Next() {
			r, err := decodeRun(getU64(k), v)
			if err != nil {
				return db.corrupt(err, "run %d", getU64(k))
			}
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: runs: %w", err)
	}
	return out, nil
}

// Cycles returns every cycle in order with its statistics, including the
// implicit cycle 1 of a database written by seedcrawl crawl (no record, N
// and Stats only).
func (db *DB) Cycles() ([]Cycle, error) {
	var out []Cycle
	err := db.view(func(tx *bolt.Tx) error {
		byN := map[uint32]int{}
		cur := tx.Bucket(bktCycles).Cursor()
		for k, v := cur.First(); k != nil; k, v = cur.Next() {
			c, err := decodeCycle(getU32(k), v)
			if err != nil {
				return db.corrupt(err, "cycle %d", getU32(k))
			}
			byN[c.N] = len(out)
			out = append(out, c)
		}
		cur = tx.Bucket(bktCycleStats).Cursor()
		for k, v := cur.First(); k != nil; k, v = cur.Next() {
			n := getU32(k)
			s, err := decodeCycleStats(v)
			if err != nil {
				return db.corrupt(err, "cycle stats %d", n)
			}
			if i, ok := byN[n]; ok {
				out[i].Stats = s
				continue
			}
			byN[n] = len(out)
			out = append(out, Cycle{N: n, Stats: s})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: cycles: %w", err)
	}
	sortCycles(out)
	return out, nil
}

// EachFetch calls fn with the fetch records of cycle in page id order.
func (db *DB) EachFetch(cycle uint32, fn func(r FetchRecord) error) error {
	err := db.view(func(tx *bolt.Tx) error {
		cur := tx.Bucket(bktFetches).Cursor()
		prefix := u32key(cycle)
		for k, v := cur.Seek(prefix); k != nil && len(k) == 12 && getU32(k) == cycle; k, v = cur.Next() {
			r, err := decodeFetch(cycle, getU64(k[4:]), v)
			if err != nil {
				return db.corrupt(err, "fetch %d/%d", cycle, getU64(k[4:]))
			}
			if err := callback(func() error { return fn(r) }); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: fetches of cycle %d: %w", cycle, err)
	}
	return nil
}

// History returns the fetch records of page id, one per cycle in which it
// was fetched, oldest first.
func (db *DB) History(id uint64) ([]FetchRecord, error) {
	var out []FetchRecord
	err := db.view(func(tx *bolt.Tx) error {
		cur := tx.Bucket(bktFetches).Cursor()
		var key [12]byte
		// One seek per cycle present: jump to (cycle, id), then to the next cycle.
		for k, _ := cur.First(); k != nil; {
			c := getU32(k)
			kk, v := cur.Seek(fetchKey(key[:0], c, id))
			if kk != nil && getU32(kk) == c && getU64(kk[4:]) == id {
				r, err := decodeFetch(c, id, v)
				if err != nil {
					return db.corrupt(err, "fetch %d/%d", c, id)
				}
				out = append(out, r)
			}
			if c == ^uint32(0) {
				break
			}
			k, _ = cur.Seek(u32key(c + 1))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: history of %d: %w", id, err)
	}
	return out, nil
}

// FetchIn returns the fetch record of page id in cycle n (the page's last
// fetch of that cycle); ok is false when it has none. A Page's Cycle is the
// cycle of its last fetch, so FetchIn(p.Cycle, p.ID) is that fetch's
// record: one lookup, where History seeks through every cycle.
func (db *DB) FetchIn(n uint32, id uint64) (r FetchRecord, ok bool, err error) {
	err = db.view(func(tx *bolt.Tx) error {
		var key [12]byte
		v := tx.Bucket(bktFetches).Get(fetchKey(key[:0], n, id))
		if v == nil {
			return nil
		}
		if r, err = decodeFetch(n, id, v); err != nil {
			return db.corrupt(err, "fetch %d/%d", n, id)
		}
		ok = true
		return nil
	})
	if err != nil {
		return FetchRecord{}, false, fmt.Errorf("storage: fetch of %d in cycle %d: %w", id, n, err)
	}
	return r, ok, nil
}

// Counters returns every counter.
func (db *DB) Counters() (map[string]uint64, error) {
	out := map[string]uint64{}
	err := db.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bktCounters).ForEach(func(k, v []byte) error {
			if len(v) == 8 {
				out[string(k)] = getU64(v)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("storage: counters: %w", err)
	}
	return out, nil
}

// corrupt wraps a decode error as ErrCorrupt naming the record; nil stays
// nil.
func (db *DB) corrupt(err error, format string, a ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %s: %s: %v", ErrCorrupt, db.path, fmt.Sprintf(format, a...), err)
}

func sortCycles(cs []Cycle) {
	slices.SortFunc(cs, func(a, b Cycle) int { return cmp.Compare(a.N, b.N) })
}
