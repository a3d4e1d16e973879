package scope

import (
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/config"
	"github.com/seedcrawl/seedcrawl/storage"
	"github.com/seedcrawl/seedcrawl/urlnorm"
)

// hosts is a frontier's view of hosts: dropped ones with why, full ones.
type hosts struct {
	dropped map[string]string
	full    map[string]bool
}

func (h hosts) Dropped(host string) (string, bool) { r, ok := h.dropped[host]; return r, ok }
func (h hosts) HostFull(host string) bool          { return h.full[host] }

func newRules(t *testing.T, seedRedirects bool) *Rules {
	t.Helper()
	sc, err := urlnorm.ParseScope(urlnorm.ScopeSeedHosts, []string{"http://127.0.0.1:8080/"}, "")
	if err != nil {
		t.Fatal(err)
	}
	s := config.Default()
	s.MaxDepth, s.MaxRedirects = 2, 1
	return New(Options{Scope: sc, SeedRedirects: seedRedirects, Settings: s, Hosts: hosts{
		dropped: map[string]string{"127.0.0.2:8080": "crawl-delay 60s"},
		full:    map[string]bool{"127.0.0.3:8080": true},
	}})
}

// TestVet checks the guards and the scope a link is vetted against.
func TestVet(t *testing.T) {
	r := newRules(t, false)
	tests := []struct {
		name    string
		url     string
		reason  string // "" when vetted
		inScope bool
	}{
		{name: "seed host", url: "http://127.0.0.1:8080/a", inScope: true},
		{name: "other host", url: "http://127.0.0.9:8080/a"},
		{name: "repeated segments", url: "http://127.0.0.1:8080/a/a/a/a/a", reason: urlnorm.ReasonRepeatedSegments},
		{name: "too long for the guard", url: "http://127.0.0.1:8080/" + strings.Repeat("x", 3000), reason: urlnorm.ReasonTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, reason, ok := r.Vet(tt.url, storage.LinkA)
			if ok != (tt.reason == "") || reason != tt.reason {
				t.Fatalf("Vet = %v %q, want ok %v %q", ok, reason, tt.reason == "", tt.reason)
			}
			if ok && (l.URL != tt.url || l.Host != urlnorm.Authority(tt.url) || l.Kind != storage.LinkA || l.InScope != tt.inScope) {
				t.Errorf("Vet = %+v, want in scope %v", l, tt.inScope)
			}
		})
	}
}

// TestAdmit checks the order of admission's reasons: scope, redirect
// hops, a dropped host, depth (soft), the host budget.
func TestAdmit(t *testing.T) {
	r := newRules(t, false)
	tests := []struct {
		name   string
		link   Link
		depth  int
		hops   int
		status storage.Status
		reason string
		soft   bool
		wantOK bool
	}{
		{name: "in scope", link: Link{Host: "127.0.0.1:8080", InScope: true}, depth: 2, wantOK: true},
		{name: "out of scope", link: Link{Host: "127.0.0.9:8080"}, depth: 9, hops: 9, status: storage.StatusOutOfScope},
		{name: "redirect chain too long", link: Link{Host: "127.0.0.2:8080", InScope: true}, hops: 2,
			status: storage.StatusRejected, reason: "too-many-redirects"},
		{name: "dropped host", link: Link{Host: "127.0.0.2:8080", InScope: true}, depth: 3, hops: 1,
			status: storage.StatusDeferred, reason: "crawl-delay 60s"},
		{name: "too deep", link: Link{Host: "127.0.0.3:8080", InScope: true}, depth: 3,
			status: storage.StatusRejected, reason: "max-depth", soft: true},
		{name: "host budget spent", link: Link{Host: "127.0.0.3:8080", InScope: true}, depth: 1,
			status: storage.StatusRejected, reason: "host-max-pages"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, reason, soft, ok := r.Admit(&tt.link, tt.depth, tt.hops)
			if status != tt.status || reason != tt.reason || soft != tt.soft || ok != tt.wantOK {
				t.Errorf("Admit = %v %q soft %v ok %v, want %v %q soft %v ok %v", status, reason, soft, ok,
					tt.status, tt.reason, tt.soft, tt.wantOK)
			}
		})
	}
}

// TestRedirect follows a seed's redirects: the target of a depth-0 page
// brings its host into scope only with SeedRedirects, and a deeper
// page's redirect never does.
func TestRedirect(t *testing.T) {
	const target = "http://127.0.0.5:8080/home"
	events := []struct {
		name          string
		seedRedirects bool
		depth         int
		grew          bool
	}{
		{name: "deeper page", seedRedirects: true, depth: 1},
		{name: "seed without SeedRedirects", depth: 0},
		{name: "seed with SeedRedirects", seedRedirects: true, depth: 0, grew: true},
	}
	for _, ev := range events {
		t.Run(ev.name, func(t *testing.T) {
			r := newRules(t, ev.seedRedirects)
			l, _, ok := r.Vet(target, storage.LinkRedirect)
			if !ok || l.InScope {
				t.Fatalf("Vet(%s) = %+v %v, want out of scope", target, l, ok)
			}
			if grew := r.Redirect(&l, ev.depth); grew != ev.grew || l.InScope != ev.grew {
				t.Errorf("Redirect = %v, link in scope %v; want %v", grew, l.InScope, ev.grew)
			}
			if in := r.InScope("http://127.0.0.5:8080/other"); in != ev.grew {
				t.Errorf("another URL of the target's host in scope %v, want %v", in, ev.grew)
			}
			if ev.grew && r.Redirect(&l, 0) {
				t.Error("a second redirect to a host in scope grew the scope again")
			}
		})
	}
}

// TestAdmission follows URLs through the links that reach them, in order:
// a refusal a later link may lift (max-depth) is lifted by a link at an
// allowed depth until the URL passes; other refusals are never lifted.
func TestAdmission(t *testing.T) {
	a := newRules(t, false).Admission()
	deep := Link{URL: "http://127.0.0.1:8080/deep", Host: "127.0.0.1:8080", InScope: true}
	out := Link{URL: "http://127.0.0.9:8080/out", Host: "127.0.0.9:8080"}
	steps := []struct {
		name  string
		id    uint64
		link  *Link
		depth int
		hops  int
		isNew bool
		pass  bool // Pass the id after the verdict
		want  Verdict
	}{
		{name: "new, too deep", id: 1, link: &deep, depth: 3, isNew: true,
			want: Verdict{Status: storage.StatusRejected, Reason: "max-depth"}},
		{name: "known, still too deep", id: 1, link: &deep, depth: 3,
			want: Verdict{Status: storage.StatusRejected, Reason: "max-depth"}},
		{name: "known, reached at an allowed depth: lifted", id: 1, link: &deep, depth: 2, pass: true, hops: 1,
			want: Verdict{OK: true, Lift: true}},
		{name: "known, passed: no longer lifted", id: 1, link: &deep, depth: 2,
			want: Verdict{OK: true}},
		{name: "new, out of scope", id: 2, link: &out, depth: 1, isNew: true,
			want: Verdict{Status: storage.StatusOutOfScope}},
		{name: "known, out of scope: nothing to lift", id: 2, link: &out, depth: 0,
			want: Verdict{Status: storage.StatusOutOfScope}},
		{name: "new, admitted", id: 3, link: &deep, depth: 1, isNew: true,
			want: Verdict{OK: true}},
	}
	for _, s := range steps {
		if got := a.Admit(s.id, s.link, s.depth, 0, s.isNew); got != s.want {
			t.Fatalf("%s: Admit = %+v, want %+v", s.name, got, s.want)
		}
		if s.pass {
			a.Pass(s.id, s.hops)
			if h := a.Hops(s.id); h != s.hops {
				t.Fatalf("%s: Hops = %d after Pass, want %d", s.name, h, s.hops)
			}
		}
	}
	a.Forget(1)
	if h := a.Hops(1); h != 0 {
		t.Errorf("Hops = %d after Forget, want 0", h)
	}
}
