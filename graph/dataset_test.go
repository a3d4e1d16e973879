package graph

import (
	"path/filepath"
	"runtime"
	"testing"
)

func sharedData(t testing.TB, name string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", "..", "shared", "data", name)
	return p
}

func TestReadSharedDatasets(t *testing.T) {
	cases := []struct {
		name  string
		n, m  int
		urls  bool
		hosts int
	}{
		{"epa", 4772, 8965, true, 3220},
		{"hollins", 6012, 23875, true, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := ReadDataset(sharedData(t, c.name))
			if err != nil {
				t.Fatal(err)
			}
			if g.N() != c.n || g.M() != c.m {
				t.Fatalf("N, M = %d, %d; want %d, %d", g.N(), g.M(), c.n, c.m)
			}
			if err := g.Validate(); err != nil {
				t.Fatal(err)
			}
			if (g.URLs != nil) != c.urls {
				t.Fatalf("URLs present = %v", g.URLs != nil)
			}
			if len(g.HostNames) != c.hosts {
				t.Fatalf("hosts = %d, want %d", len(g.HostNames), c.hosts)
			}
		})
	}
}
