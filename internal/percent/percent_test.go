package percent

import (
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	path := MakeSet(Unreserved + "!$&'()*+,;=:@/")
	var printable Set
	for c := byte('!'); c < 0x7f; c++ {
		printable[c>>6] |= 1 << (c & 63)
	}
	tests := []struct {
		name string
		in   string
		keep *Set
		want string
	}{
		{"normal", "/a/b;c=d", &path, "/a/b;c=d"},
		{"unreserved escape decoded", "/%7Euser/%41", &path, "/~user/A"},
		{"reserved escape upper-cased", "/a%2fb%3a", &path, "/a%2Fb%3A"},
		{"byte outside keep escaped", "/a b/\xc3\xa9", &path, "/a%20b/%C3%A9"},
		{"stray percent escaped", "/100%/x%zz%4", &path, "/100%25/x%25zz%254"},
		{"stray percent kept when keep has it", "/100%/x%zz", &printable, "/100%/x%zz"},
		{"escape at the end", "/a%2f", &path, "/a%2F"},
		{"empty", "", &path, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Normalize(tc.in, tc.keep)
			if got != tc.want {
				t.Fatalf("Normalize(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if normal := IsNormal(tc.in, tc.keep); normal != (got == tc.in) {
				t.Errorf("IsNormal(%q) = %v, but Normalize gives %q", tc.in, normal, got)
			}
			if again := Normalize(got, tc.keep); again != got {
				t.Errorf("Normalize is not idempotent: %q -> %q", got, again)
			}
			var sb strings.Builder
			Write(&sb, tc.in, tc.keep)
			if sb.String() != got {
				t.Errorf("Write(%q) = %q, Normalize %q", tc.in, sb.String(), got)
			}
		})
	}
}

func TestSetAndHex(t *testing.T) {
	s := MakeSet("az\x00\xff")
	for c := 0; c < 256; c++ {
		want := c == 'a' || c == 'z' || c == 0 || c == 0xff
		if s.Has(byte(c)) != want {
			t.Errorf("Has(%#x) = %v", c, !want)
		}
		hex := strings.IndexByte("0123456789abcdefABCDEF", byte(c)) >= 0 && c != 0
		if IsHex(byte(c)) != hex {
			t.Errorf("IsHex(%#x) = %v", c, !hex)
		}
	}
}
