package storage

import (
	"bytes"
	"encoding/hex"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestCodecRoundTrip(t *testing.T) {
	p := Page{ID: 7, URL: "http://a.test/é?q=1", Status: StatusRedirect, Reason: "r", Depth: 3, From: NoPage,
		FirstCycle: 2, Code: 301, ContentType: "text/html", Length: -1, Truncated: true, Hash: HashOf([]byte("x")),
		ETag: "e", LastModified: "lm", FetchedAt: time.Unix(5, 6), Duration: -time.Second, Interval: time.Hour,
		Novel: true, Cycle: 9, Fetches: math.MaxUint32, Successes: 1, ChangedAt: time.Unix(-100, 0)}
	tests := []struct {
		name string
		enc  func() []byte
		dec  func(v []byte) (any, error)
		want any
	}{
		{"page", func() []byte { return encodePage(nil, &p) },
			func(v []byte) (any, error) { var q Page; err := decodePage(7, v, &q); return q, err }, p},
		{"fetch", func() []byte {
			return encodeFetch(nil, &FetchRecord{Status: StatusGone, Code: 410, Change: ChangeGone, Hash: p.Hash, Length: 3, FetchedAt: time.Unix(1, 0), Duration: 2,
				LastModified: time.Unix(1_735_689_600, 0).UTC(), Date: time.Unix(-86_400, 0).UTC()})
		}, func(v []byte) (any, error) { return decodeFetch(4, 8, v) },
			FetchRecord{Cycle: 4, ID: 8, Status: StatusGone, Code: 410, Change: ChangeGone, Hash: p.Hash, Length: 3, FetchedAt: time.Unix(1, 0), Duration: 2,
				LastModified: time.Unix(1_735_689_600, 0).UTC(), Date: time.Unix(-86_400, 0).UTC()}},
		{"entry", func() []byte {
			return encodeEntry(nil, &Entry{Host: "h", Prio: math.Inf(-1), Seq: math.MaxUint64, Depth: 4, Attempt: 5})
		}, func(v []byte) (any, error) { return decodeEntry(3, v) },
			Entry{ID: 3, Host: "h", Prio: math.Inf(-1), Seq: math.MaxUint64, Depth: 4, Attempt: 5}},
		{"host", func() []byte {
			return encodeHost(nil, &Host{ReadyAt: time.Unix(9, 0), Reason: "r", Fetches: 1, Successes: 2, Errors: 3, Bytes: 4, LastFetch: time.Unix(8, 0), LastDuration: 5})
		}, func(v []byte) (any, error) { return decodeHost("h", v) },
			Host{Name: "h", ReadyAt: time.Unix(9, 0), Reason: "r", Fetches: 1, Successes: 2, Errors: 3, Bytes: 4, LastFetch: time.Unix(8, 0), LastDuration: 5}},
		{"robots", func() []byte {
			return encodeRobots(nil, &Robots{State: 2, Code: 404, Body: []byte("b"), FetchedAt: time.Unix(1, 0), Expires: time.Unix(2, 0), Failures: 3, Err: "e"})
		}, func(v []byte) (any, error) { return decodeRobots(v) },
			Robots{State: 2, Code: 404, Body: []byte("b"), FetchedAt: time.Unix(1, 0), Expires: time.Unix(2, 0), Failures: 3, Err: "e"}},
		{"run", func() []byte {
			return encodeRun(nil, &Run{Start: time.Unix(1, 0), Command: "c", Config: "{}", Counters: map[string]uint64{"a": 1, "b": 2}})
		}, func(v []byte) (any, error) { return decodeRun(2, v) },
			Run{ID: 2, Start: time.Unix(1, 0), Command: "c", Config: "{}", Counters: map[string]uint64{"a": 1, "b": 2}}},
		{"cycle", func() []byte {
			return encodeCycle(nil, &Cycle{Start: time.Unix(1, 0), SeedAlgo: "hits-core", Seeds: []Seed{{1, 0.5, "w"}}, Replaced: []Replacement{{2, NoPage, "410"}}, Info: "i"})
		}, func(v []byte) (any, error) { return decodeCycle(3, v) },
			Cycle{N: 3, Start: time.Unix(1, 0), SeedAlgo: "hits-core", Seeds: []Seed{{1, 0.5, "w"}}, Replaced: []Replacement{{2, NoPage, "410"}}, Info: "i"}},
		{"cycle stats", func() []byte {
			return encodeCycleStats(nil, &CycleStats{1, 2, 3, 4, 5, 6, 7, 8, 9, time.Unix(1, 0), time.Unix(2, 0), 10})
		}, func(v []byte) (any, error) { return decodeCycleStats(v) },
			CycleStats{1, 2, 3, 4, 5, 6, 7, 8, 9, time.Unix(1, 0), time.Unix(2, 0), 10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.enc()
			got, err := tc.dec(v)
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("decode = %+v, %v\nwant %+v", got, err, tc.want)
			}
			// A newer writer appends fields: older readers ignore them.
			got, err = tc.dec(append(append([]byte{}, v...), 0x05, 0x80, 0x01))
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("decode with trailing fields = %+v, %v", got, err)
			}
			// A record with no format byte is refused.
			if _, err := tc.dec(nil); err == nil {
				t.Fatal("decoding an empty value succeeded")
			}
		})
	}
}

// TestCodecOlderRecord: a record written before later fields existed (cut at
// a field boundary) decodes with those fields zero.
func TestCodecOlderRecord(t *testing.T) {
	full := Page{URL: "http://a.test/", Status: StatusFetched, Reason: "x", Depth: 2, From: 1, Code: 200, Fetches: 3}
	v := encodePage(nil, &full)
	// format, URL, status, reason, depth, from: the fields of a record
	// from before first cycle existed.
	prefix := 1 + 1 + len(full.URL) + 1 + 1 + len(full.Reason) + 1 + 1
	var got Page
	if err := decodePage(0, v[:prefix], &got); err != nil {
		t.Fatal(err)
	}
	want := Page{URL: full.URL, Status: full.Status, Reason: full.Reason, Depth: 2, From: 1}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("older record = %+v, want %+v", got, want)
	}
}

// TestFetchRecordOlderLayout: a fetch record written before Last-Modified
// and Date were stored (the layout ended at Duration) decodes with both
// zero, and one with only Last-Modified decodes with Date zero.
func TestFetchRecordOlderLayout(t *testing.T) {
	lm := time.Date(2025, 1, 3, 0, 0, 0, 0, time.UTC)
	full := FetchRecord{Status: StatusFetched, Code: 200, Change: ChangeChanged, Hash: HashOf([]byte("x")), Length: 5,
		FetchedAt: time.Unix(100, 0), Duration: 7, LastModified: lm, Date: lm.Add(36 * time.Hour)}
	v := encodeFetch(nil, &full)
	// full as the old writer wrote it, its layout ending at Duration: format
	// 1, status, code (zigzag), change, hash kind and sum, length (zigzag),
	// fetched-at (zigzag Unix nanoseconds), duration (zigzag).
	old, err := hex.DecodeString("01" + "02" + "9003" + "02" + "02" + "5c7401c0ec22eeeeeaf06c6480b2cd11" + "0a" + "80a0b787e905" + "0e")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(v, old) {
		t.Fatalf("the new layout does not extend the old one:\nold %x\nnew %x", old, v)
	}
	tests := []struct {
		name     string
		v        []byte
		lm, date time.Time
	}{
		{"old layout", old, time.Time{}, time.Time{}},
		{"last-modified only", v[:len(old)+len(v[len(old):])/2], lm, time.Time{}},
		{"full", v, lm, full.Date},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeFetch(2, 9, tc.v)
			if err != nil {
				t.Fatal(err)
			}
			want := full
			want.Cycle, want.ID, want.LastModified, want.Date = 2, 9, tc.lm, tc.date
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("decode = %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestParseHTTPDate(t *testing.T) {
	want := time.Date(1994, 11, 6, 8, 49, 37, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
	}{
		{"Sun, 06 Nov 1994 08:49:37 GMT", want},  // IMF-fixdate
		{"Sunday, 06-Nov-94 08:49:37 GMT", want}, // RFC 850
		{"Sun Nov  6 08:49:37 1994", want},       // asctime
		{"", time.Time{}},
		{"yesterday", time.Time{}},
		{"Sun, 06 Nov 1994 08:49:37 GMT" + strings.Repeat(" ", 100), time.Time{}},
		{"2025-01-01T00:00:00Z", time.Time{}}, // a sitemap's form, not an HTTP date
	}
	for _, tc := range tests {
		if got := parseHTTPDate(tc.in); !got.Equal(tc.want) {
			t.Errorf("parseHTTPDate(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestLinksCodec(t *testing.T) {
	tests := []struct {
		name string
		src  uint64
		ls   []Link
	}{
		{"empty", 5, nil},
		{"near", 1000, []Link{{1001, LinkA}, {999, LinkA}, {1000, LinkA}}},
		{"far and kinds", 3, []Link{{math.MaxUint32, LinkCanonical}, {0, LinkRedirect}, {1 << 40, LinkOther}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := encodeLinks(nil, tc.src, tc.ls)
			got, err := decodeLinks(nil, tc.src, v)
			if err != nil || (len(tc.ls) > 0 && !reflect.DeepEqual(got, tc.ls)) || (len(tc.ls) == 0 && len(got) != 0) {
				t.Fatalf("decodeLinks = %v, %v", got, err)
			}
			n, err := linkCount(v)
			if err != nil || n != len(tc.ls) {
				t.Fatalf("linkCount = %d, %v", n, err)
			}
			ts, fits, err := decodeTargets(nil, tc.src, v)
			wantFits := true
			for i, l := range tc.ls {
				if l.To > math.MaxUint32 {
					wantFits = false
				} else if err == nil && ts[i] != uint32(l.To) {
					t.Fatalf("target %d = %d, want %d", i, ts[i], l.To)
				}
			}
			if err != nil || fits != wantFits || len(ts) != len(tc.ls) {
				t.Fatalf("decodeTargets = %v, %v, %v", ts, fits, err)
			}
		})
	}
}

// FuzzDecode: decoders never panic on arbitrary values (a damaged page that
// bbolt still hands out).
func FuzzDecode(f *testing.F) {
	f.Add(encodePage(nil, &Page{URL: "http://a.test/", Hash: HashOf(nil)}))
	f.Add(encodeLinks(nil, 9, []Link{{1, LinkA}, {20, LinkFrame}}))
	f.Add([]byte{1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Add(encodePage(nil, &Page{URL: "http://a.test/", Hash: HashSHA256.Of(nil)}))
	f.Add(encodeFetch(nil, &FetchRecord{Status: StatusFetched, Hash: HashOf(nil)}))
	f.Fuzz(func(t *testing.T, v []byte) {
		var p Page
		if decodePage(1, v, &p) == nil {
			// What decodes re-encodes to itself: a hash keeps its kind.
			var q Page
			if err := decodePage(1, encodePage(nil, &p), &q); err != nil || !reflect.DeepEqual(p, q) {
				t.Fatalf("page re-decoded as %+v, %v; was %+v", q, err, p)
			}
		}
		if r, err := decodeFetch(1, 1, v); err == nil {
			if s, err := decodeFetch(1, 1, encodeFetch(nil, &r)); err != nil || !reflect.DeepEqual(r, s) {
				t.Fatalf("fetch re-decoded as %+v, %v; was %+v", s, err, r)
			}
		}
		_, _ = pageURL(v)
		_, _, _ = pageFlags(v)
		_, _ = decodeLinks(nil, 1, v)
		_, _, _ = decodeTargets(nil, 1, v)
		_, _ = linkCount(v)
		_, _ = decodeFetch(1, 1, v)
		_, _ = decodeEntry(1, v)
		_, _ = decodeHost("h", v)
		_, _ = decodeRobots(v)
		_, _ = decodeRun(1, v)
		_, _ = decodeCycle(1, v)
		_, _ = decodeCycleStats(v)
	})
}

// TestCodecHashKinds: content hashes keep their kind through page and
// fetch records; records written before kinds existed (SHA-256, with no
// kind stored) read back as HashSHA256, and a kind from a newer build is
// kept as it is.
func TestCodecHashKinds(t *testing.T) {
	sum := HashSHA256.Of([]byte("x")).sum
	tests := []struct {
		name string
		h    Hash
	}{
		{"none", Hash{}},
		{"sha256", HashSHA256.Of([]byte("x"))},
		{"xxh3", HashOf([]byte("x"))},
		{"kind from a newer build", Hash{kind: 9, sum: sum}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Page{ID: 1, URL: "http://a.test/", Status: StatusFetched, Hash: tc.h, ChangedAt: time.Unix(3, 0)}
			var q Page
			if err := decodePage(1, encodePage(nil, &p), &q); err != nil || q.Hash != tc.h {
				t.Fatalf("page hash = %v, %v; want %v", q.Hash, err, tc.h)
			}
			f := FetchRecord{Status: StatusFetched, Hash: tc.h}
			g, err := decodeFetch(0, 0, encodeFetch(nil, &f))
			if err != nil || g.Hash != tc.h {
				t.Fatalf("fetch hash = %v, %v; want %v", g.Hash, err, tc.h)
			}
		})
	}

	// The layouts older builds wrote: a page whose flags say "hash" with
	// 16 bytes after them and nothing at the end, a fetch record with 1
	// then 16 bytes.
	p := Page{ID: 1, URL: "u", Status: StatusFetched, Hash: Hash{kind: HashSHA256, sum: sum}}
	v := encodePage(nil, &p)
	if !bytes.Contains(v, append([]byte{pageHasHash}, sum[:]...)) || v[len(v)-1] != 0 {
		t.Fatalf("a SHA-256 page record is not in the older layout: % x", v)
	}
	var q Page
	if err := decodePage(1, v, &q); err != nil || q.Hash.Kind() != HashSHA256 {
		t.Fatalf("older page record: hash %v kind %v, %v", q.Hash, q.Hash.Kind(), err)
	}
	old := append([]byte{recordFormat, byte(StatusFetched), 0, 0, 1}, sum[:]...)
	old = append(old, 0, 0, 0)
	r, err := decodeFetch(0, 0, old)
	if err != nil || r.Hash.Kind() != HashSHA256 || r.Hash.sum != sum {
		t.Fatalf("older fetch record: %+v, %v", r, err)
	}
	// A cut hash is an error, not a hash of zeros.
	if _, err := decodeFetch(0, 0, old[:10]); err == nil {
		t.Fatal("a fetch record cut inside its hash decoded")
	}
}

// TestHashSame: hashes compare only within a kind.
func TestHashSame(t *testing.T) {
	a, b := HashOf([]byte("a")), HashOf([]byte("b"))
	sa := HashSHA256.Of([]byte("a"))
	tests := []struct {
		name        string
		x, y        Hash
		same, known bool
	}{
		{"same content", a, HashOf([]byte("a")), true, true},
		{"other content", a, b, false, true},
		{"other kind, same content", a, sa, false, false},
		{"zero", a, Hash{}, false, false},
	}
	for _, tc := range tests {
		if same, known := tc.x.Same(tc.y); same != tc.same || known != tc.known {
			t.Errorf("%s: Same = %v, %v; want %v, %v", tc.name, same, known, tc.same, tc.known)
		}
	}
	if s := sa.String(); len(s) != 32 {
		t.Errorf("SHA-256 hash prints as %q, want 32 hex digits as before", s)
	}
	if s := a.String(); !strings.HasPrefix(s, "xxh3:") || len(s) != 5+32 {
		t.Errorf("XXH3 hash prints as %q", s)
	}
	if got := HashSHA256.Of([]byte("abc")).String(); got != "ba7816bf8f01cfea414140de5dae2223" {
		t.Errorf("SHA-256 of abc = %s", got)
	}
}

// TestCodecOlderCycleStats: cycle figures written before Retries existed
// (the record without its last varint) decode with no retries and every
// other figure kept.
func TestCodecOlderCycleStats(t *testing.T) {
	want := CycleStats{Fetches: 1, New: 2, Errors: 3, Bytes: 4, Found: 5, NextID: 6, First: time.Unix(1, 0), Last: time.Unix(2, 0), Retries: 7}
	v := encodeCycleStats(nil, &want)
	if v[len(v)-1] != 7 {
		t.Fatalf("retries are not the last byte of %x", v)
	}
	got, err := decodeCycleStats(v[:len(v)-1])
	want.Retries = 0
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("older record = %+v, %v; want %+v", got, err, want)
	}
}
