package urlnorm

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestSeeds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		seeds []string
		want  []string
		err   error // also wrapped with ErrSeed
	}{
		{name: "none", seeds: nil, want: []string{}},
		{name: "normalized in order", seeds: []string{"HTTP://B.example/x", "http://a.example"},
			want: []string{"http://b.example/x", "http://a.example/"}},
		{name: "repeats after normalization dropped", seeds: []string{"http://a.example", "http://A.example:80/", "http://b.example/", "http://a.example/"},
			want: []string{"http://a.example/", "http://b.example/"}},
		{name: "bad scheme", seeds: []string{"http://a.example/", "ftp://x/"}, err: ErrScheme},
		{name: "not a URL", seeds: []string{"not a url"}, err: ErrParse},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Seeds(tc.seeds)
			if tc.err != nil {
				if !errors.Is(err, ErrSeed) || !errors.Is(err, tc.err) || got != nil {
					t.Fatalf("Seeds(%q) = %q, %v; want ErrSeed and %v", tc.seeds, got, err, tc.err)
				}
				if bad := tc.seeds[len(tc.seeds)-1]; !strings.Contains(err.Error(), `"`+bad+`"`) {
					t.Errorf("error %q does not quote the seed %q", err, bad)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Seeds(%q) = %q, %v; want %q", tc.seeds, got, err, tc.want)
			}
		})
	}
}

// TestSeedsRefuseUserinfo: Normalize drops userinfo, so a seed with it
// would be crawled without the credentials its user gave; it is refused,
// and the error does not repeat the password.
func TestSeedsRefuseUserinfo(t *testing.T) {
	for _, seed := range []string{"http://admin:s3cret@a.example/", "https://admin@a.example/x",
		// net/url reads these otherwise or not at all; the WHATWG parser,
		// whose userinfo Normalize drops, reads a user and password.
		"http://admin:s3cret@a.example/%zz", "http://admin:pa s3cret@a.example/", " http://admin:s3cret@a.example/",
		`http:\\admin:s3cret@a.example/`, "http:admin:s3cret@a.example/", "http://admin:s3\tcret@a.example/"} {
		got, err := Seeds([]string{"http://b.example/", seed})
		if !errors.Is(err, ErrSeed) || !errors.Is(err, ErrUserinfo) || got != nil {
			t.Fatalf("Seeds(%q) = %q, %v; want ErrSeed and ErrUserinfo", seed, got, err)
		}
		if strings.Contains(err.Error(), "s3") || !strings.Contains(err.Error(), "a.example") {
			t.Errorf("error %q: want the seed's host named and its password not", err)
		}
	}
}

// A seed with userinfo that fails to normalize for another reason (a
// space in its host) is refused without quoting its password either.
func TestSeedsBadSeedHidesPassword(t *testing.T) {
	_, err := Seeds([]string{"http://user:s3cret@exa mple.com/"})
	if !errors.Is(err, ErrSeed) || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "exa mple.com") {
		t.Errorf("error %v: want ErrSeed quoting the seed without its password", err)
	}
}

// An empty userinfo ("http://@a.example/") carries no credentials: the
// seed is taken, without the '@'.
func TestSeedsEmptyUserinfo(t *testing.T) {
	got, err := Seeds([]string{"http://@a.example/"})
	if err != nil || len(got) != 1 || got[0] != "http://a.example/" {
		t.Fatalf("Seeds = %q, %v; want http://a.example/", got, err)
	}
}

// TestRedactUserinfo: the user and password of a URL a user gave, in the
// spellings parsers read them, become "…"; anything else is kept.
func TestRedactUserinfo(t *testing.T) {
	for in, want := range map[string]string{
		"http://admin:s3cret@a.example/x?q@": "http://…@a.example/x?q@",
		"http:admin:s3cret@a.example/":       "http:…@a.example/",
		`http:\\admin:s3cret@a.example\x`:    `http:\\…@a.example\x`,
		"admin:s3cret@a.example":             "admin:…@a.example",
		"http://a.example/p@q":               "http://a.example/p@q",
		"www.a.example/docs":                 "www.a.example/docs",
		"mailto:a@example.org":               "mailto:…@example.org",
	} {
		if got := RedactUserinfo(in); got != want {
			t.Errorf("RedactUserinfo(%q) = %q, want %q", in, got, want)
		}
	}
}
