package urlnorm

import (
	"fmt"
	"sync"
	"testing"
)

// A reference remembered against one page is answered for another page
// only when its result cannot differ: the table runs in order, the memo
// shared, each row checked against Resolve and against what the memo was
// expected to answer. A row the memo does not answer is resolved twice,
// which makes the memo remember it (if the fast path took it).
func TestMemoAcrossBases(t *testing.T) {
	m := NewMemo(1024)
	rows := []struct {
		base, ref string
		hit       bool // answered from the memo
		want      string
	}{
		{"https://a.test/docs/x.html", "y.html", false, "https://a.test/docs/y.html"},
		{"https://a.test/docs/z.html", "y.html", true, "https://a.test/docs/y.html"},
		{"https://a.test/other/z.html", "y.html", false, "https://a.test/other/y.html"},
		{"https://b.test/docs/x.html", "y.html", false, "https://b.test/docs/y.html"},
		{"http://a.test/docs/x.html", "y.html", false, "http://a.test/docs/y.html"},
		{"https://a.test:8443/docs/x.html", "y.html", false, "https://a.test:8443/docs/y.html"},
		{"https://a.test/docs/x.html", "/root.html", false, "https://a.test/root.html"},
		{"https://a.test/blog/deep/x.html", "/root.html", true, "https://a.test/root.html"},
		{"https://b.test/docs/x.html", "/root.html", false, "https://b.test/root.html"},
		{"https://a.test/docs/x.html", "//c.test/p", false, "https://c.test/p"},
		{"https://b.test/", "//c.test/p", true, "https://c.test/p"},
		{"http://b.test/", "//c.test/p", false, "http://c.test/p"},
		{"https://a.test/docs/x.html", "HTTP://D.test:80/q", false, "http://d.test/q"},
		{"http://z.test/", "HTTP://D.test:80/q", true, "http://d.test/q"},
		{"https://a.test/docs/x.html?v=1", "#top", false, "https://a.test/docs/x.html?v=1"},
		{"https://a.test/docs/x.html?v=2", "#top", false, "https://a.test/docs/x.html?v=2"},
		{"https://a.test/docs/x.html?v=1", "#top", true, "https://a.test/docs/x.html?v=1"},
		{"https://a.test/docs/y.html", "?p=2", false, "https://a.test/docs/y.html?p=2"},
		{"https://a.test/docs/z.html", "?p=2", false, "https://a.test/docs/z.html?p=2"},
		{"https://a.test/docs/a/", "../up.html", false, "https://a.test/docs/up.html"},
		{"https://a.test/docs/a/b", "../up.html", true, "https://a.test/docs/up.html"},
		{"https://a.test/docs/", "../up.html", false, "https://a.test/up.html"},
		// The WHATWG path is never remembered.
		{"https://a.test/docs/x.html", "caf\u00e9.html", false, "https://a.test/docs/caf%C3%A9.html"},
		{"https://a.test/docs/x.html", "caf\u00e9.html", false, "https://a.test/docs/caf%C3%A9.html"},
	}
	for i, r := range rows {
		b, err := NewBase(r.base)
		if err != nil {
			t.Fatal(err)
		}
		kind, ctx := refKind(b.fast, []byte(r.ref))
		hit := m.get(m.hash(kind, ctx, []byte(r.ref)), kind, ctx, []byte(r.ref)) != nil
		raw, got, err := b.ResolveBytes(m, []byte(r.ref))
		if err != nil || raw != r.ref || got != r.want || hit != r.hit {
			t.Errorf("row %d: %q against %q = %q, %q, %v (hit %v); want %q (hit %v)", i, r.ref, r.base, raw, got, err, hit, r.want, r.hit)
		}
		if want, _ := b.Resolve(r.ref); want != got {
			t.Errorf("row %d: Resolve says %q, the memo %q", i, want, got)
		}
		if !hit {
			_, _, _ = b.ResolveBytes(m, []byte(r.ref))
		}
	}
}

// Errors are those of Resolve, and a reference over the size bound is
// resolved but not remembered.
func TestMemoErrorsAndBounds(t *testing.T) {
	m := NewMemo(16)
	b, err := NewBase("https://a.test/d/p")
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"mailto:x@y.test", "http://[bad/", "javascript:void(0)"} {
		_, _, err := b.ResolveBytes(m, []byte(ref))
		_, werr := b.Resolve(ref)
		if err == nil || Reason(err) != Reason(werr) {
			t.Errorf("%q: err %v, Resolve says %v", ref, err, werr)
		}
	}
	long := make([]byte, maxMemoPart+1)
	for i := range long {
		long[i] = 'x'
	}
	for range 2 {
		if _, got, err := b.ResolveBytes(m, long); err != nil || got != "https://a.test/d/"+string(long) {
			t.Fatalf("long ref: %q, %v", got, err)
		}
	}
	for i := range m.slots {
		if e := m.slots[i].e.Load(); e != nil {
			t.Fatalf("remembered %q", e.ref)
		}
	}
}

// Many goroutines resolving overlapping references through a small memo
// (constant eviction) all get Resolve's answers; run with -race.
func TestMemoConcurrent(t *testing.T) {
	m := NewMemo(8)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				b, err := NewBase(fmt.Sprintf("https://h%d.test/d%d/p%d", i%3, (i+g)%4, i))
				if err != nil {
					t.Error(err)
					return
				}
				for _, ref := range []string{"a.html", "../b.html", "/c.html", "//h.test/d", "?q=1", fmt.Sprintf("n%d.html", i%5)} {
					want, _ := b.Resolve(ref)
					if _, got, err := b.ResolveBytes(m, []byte(ref)); err != nil || got != want {
						t.Errorf("%q against %q: %q, %v; want %q", ref, b.String(), got, err, want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// A resolution the memo remembers brings the same Note each time it is
// answered, one per entry: events in order, each row checked.
func TestMemoNotes(t *testing.T) {
	m := NewMemo(1024)
	var first *Note
	rows := []struct {
		base, ref string
		noted     bool // a Note comes back
		same      bool // the Note of the row that first had one
	}{
		{"https://a.test/docs/x.html", "y.html", false, false},  // first resolution: not remembered
		{"https://a.test/docs/z.html", "y.html", true, true},    // second: remembered, Note made
		{"https://a.test/docs/w.html", "y.html", true, true},    // answered from the memo
		{"https://a.test/other/w.html", "y.html", false, false}, // another directory: another key
		{"https://a.test/other/v.html", "y.html", true, false},  // its own entry, its own Note
		{"https://a.test/docs/x.html", "caf\u00e9.html", false, false},
		{"https://a.test/docs/x.html", "caf\u00e9.html", false, false}, // WHATWG path: never remembered
	}
	for i, r := range rows {
		b, err := NewBase(r.base)
		if err != nil {
			t.Fatal(err)
		}
		_, _, note, err := b.ResolveNoted(m, []byte(r.ref))
		if err != nil || (note != nil) != r.noted {
			t.Fatalf("row %d: note %p, err %v; want a note: %v", i, note, err, r.noted)
		}
		if note == nil {
			continue
		}
		if first == nil {
			first = note
			if note.Load() != nil {
				t.Fatalf("row %d: a new Note holds %v", i, note.Load())
			}
			note.Store(i)
		}
		want := any(nil)
		if r.same {
			want = 1
		}
		if (note == first) != r.same || note.Load() != want {
			t.Errorf("row %d: note %p holding %v; first %p, want the same: %v", i, note, note.Load(), first, r.same)
		}
	}
}
