package robots

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// matchBySets is the offset-set matcher of Google's robots.txt parser,
// kept as the reference match must agree with: the set of path offsets
// reachable after each pattern byte.
func matchBySets(pattern, path string) bool {
	pos := []int{0}
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '$' && i == len(pattern)-1:
			return pos[len(pos)-1] == len(path)
		case c == '*':
			first := pos[0]
			pos = pos[:0]
			for j := first; j <= len(path); j++ {
				pos = append(pos, j)
			}
		default:
			n := 0
			for _, p := range pos {
				if p < len(path) && path[p] == c {
					pos[n] = p + 1
					n++
				}
			}
			if n == 0 {
				return false
			}
			pos = pos[:n]
		}
	}
	return true
}

// match agrees with the offset-set reference on random patterns and paths
// over a small alphabet (so runs repeat and overlap), '$' inside and at
// the end of patterns included.
func TestMatchAgreesWithOffsetSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 200_000 {
		pattern := "/" + gen("ab*$", rng.IntN(8))
		path := "/" + gen("ab$", rng.IntN(10))
		if got, want := match(pattern, path), matchBySets(pattern, path); got != want {
			t.Fatalf("match(%q, %q) = %v, offset sets say %v", pattern, path, got, want)
		}
	}
}

// A robots.txt of thousands of wildcard rules costs a check about one pass
// over the path per rule, and no allocation: the offset-set walk allocated
// per rule and took half a second of CPU per URL for 500 KiB of
// "/*a*a*…*b" rules (the most robots.txt a crawl reads) and a 2000-byte
// path.
func TestManyWildcardRulesCheap(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for b.Len() < DefaultMaxSize {
		b.WriteString("Disallow: /*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b\n")
	}
	g := parse([]byte(b.String())).group("seedcrawl")
	path := "/" + strings.Repeat("a", 2000)
	if !g.allowed(path) {
		t.Fatal("a path without b is disallowed")
	}
	norm := normPattern(path)
	allocs := testing.AllocsPerRun(3, func() {
		for _, r := range g.rules {
			match(r.pattern, norm)
		}
	})
	if allocs != 0 {
		t.Errorf("matching %d rules allocates %.0f times, want 0", len(g.rules), allocs)
	}
	if g.allowed(path[:1000] + "b") {
		t.Error("a path with a b after the a's is allowed")
	}
}

// FuzzMatch checks match against the offset-set reference on any pattern
// and path, not only the small alphabet of the random test.
func FuzzMatch(f *testing.F) {
	for _, s := range [][2]string{{"/", "/"}, {"/*a*b$", "/xaxb"}, {"/a$", "/a"}, {"/a*$b", "/a$b"}, {"/*.php$", "/index.php?x"}, {"/$", ""}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		if len(pattern) > 64 || len(path) > 256 {
			return // the reference is quadratic
		}
		if got, want := match(pattern, path), matchBySets(pattern, path); got != want {
			t.Fatalf("match(%q, %q) = %v, offset sets say %v", pattern, path, got, want)
		}
	})
}
