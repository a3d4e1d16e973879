package graph

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// fakeStream is an in-memory Stream: urls[i] is node i's URL, out lists
// (src, targets) in the order EachOut reports them.
type fakeStream struct {
	urls []string
	out  []fakeList
	fail error
}

type fakeList struct {
	src  uint32
	dsts []uint32
}

func (s *fakeStream) Nodes() (int, error) { return len(s.urls), s.fail }

func (s *fakeStream) EachNode(fn func(uint32, string) error) error {
	for i, u := range s.urls {
		if err := fn(uint32(i), u); err != nil {
			return err
		}
	}
	return nil
}

func (s *fakeStream) EachOut(fn func(uint32, []uint32) error) error {
	buf := make([]uint32, 0, 8)
	for _, l := range s.out {
		// Reuse one buffer, as a cursor would: Load must copy.
		buf = append(buf[:0], l.dsts...)
		if err := fn(l.src, buf); err != nil {
			return err
		}
	}
	return nil
}

func TestLoad(t *testing.T) {
	urls := []string{"http://a.test/", "http://a.test/2", "http://b.test/", "http://c.test/"}
	cases := []struct {
		name    string
		s       *fakeStream
		want    *CSR
		urls    bool
		wantErr string
	}{
		{"document order kept, gaps dangling", &fakeStream{urls: urls, out: []fakeList{{0, []uint32{2, 1, 2}}, {2, []uint32{2, 0}}}},
			fromArcs(4, [][2]uint32{{0, 2}, {0, 1}, {0, 2}, {2, 2}, {2, 0}}), true, ""},
		{"no URLs", &fakeStream{urls: make([]string, 3), out: []fakeList{{1, []uint32{0}}}}, fromArcs(3, [][2]uint32{{1, 0}}), false, ""},
		{"no arcs", &fakeStream{urls: urls}, fromArcs(4, nil), true, ""},
		{"source out of order", &fakeStream{urls: urls, out: []fakeList{{2, []uint32{0}}, {1, []uint32{0}}}}, nil, false, "source 1 out of order"},
		{"target out of range", &fakeStream{urls: urls, out: []fakeList{{0, []uint32{4}}}}, nil, false, "arc 0->4 out of range"},
		{"count fails", &fakeStream{fail: errors.New("disk on fire")}, nil, false, "count nodes: disk on fire"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := Load(c.s)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sameGraph(t, g, c.want)
			if c.urls != (g.URLs != nil) || c.urls && (!slices.Equal(g.URLs, c.s.urls) || !g.HasHosts() || g.Hosts[0] != g.Hosts[1] || g.Hosts[0] == g.Hosts[2]) {
				t.Fatalf("URLs %v hosts %v %v", g.URLs, g.Hosts, g.HostNames)
			}
		})
	}
}
