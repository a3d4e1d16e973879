package urlnorm

import "strings"

// byteSet is a 256-bit set of bytes.
type byteSet [4]uint64

func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

func makeSet(chars string) byteSet {
	var s byteSet
	for i := 0; i < len(chars); i++ {
		c := chars[i]
		s[c>>6] |= 1 << (c & 63)
	}
	return s
}

const (
	alnum      = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	unreserved = alnum + "-._~"
)

// The keep sets list the bytes written as they are in each component; every
// other byte is percent-encoded. They are RFC 3986 (unreserved, sub-delims
// and the delimiters the component's grammar allows) minus whatever the
// WHATWG parser would encode when it reads the result again, so that
// normalizing a normal form changes nothing:
//   - path: pchar and '/' (RFC 3986 section 3.3);
//   - query: pchar, '/' and '?' (section 3.4) minus the apostrophe, which WHATWG
//     encodes in the query of special URLs;
//   - userinfo: unreserved and sub-delims minus ';' and '=', which WHATWG
//     encodes in userinfo.
var (
	unreservedSet = makeSet(unreserved)
	pathKeep      = makeSet(unreserved + "!$&'()*+,;=" + ":@/")
	queryKeep     = makeSet(unreserved + "!$&()*+,;=" + ":@/?")
	userinfoKeep  = makeSet(unreserved + "!$&'()*+,")
)

const upperHex = "0123456789ABCDEF"

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// writeComponent writes s to sb with percent-encoding normalized: an escape
// of an unreserved byte is decoded, other escapes get upper-case hex, a '%'
// that does not start an escape becomes "%25", a byte in keep is written
// as is and any other byte is escaped.
func writeComponent(sb *strings.Builder, s string, keep byteSet) {
	if componentIsNormal(s, &keep) {
		sb.WriteString(s)
		return
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b := unhex(s[i+1])<<4 | unhex(s[i+2])
			if unreservedSet.has(b) {
				sb.WriteByte(b)
			} else {
				sb.WriteByte('%')
				sb.WriteByte(upperHex[b>>4])
				sb.WriteByte(upperHex[b&15])
			}
			i += 2
		case c != '%' && keep.has(c):
			sb.WriteByte(c)
		default:
			sb.WriteByte('%')
			sb.WriteByte(upperHex[c>>4])
			sb.WriteByte(upperHex[c&15])
		}
	}
}

// componentIsNormal reports whether writeComponent would copy s unchanged,
// which is the common case and needs no allocation.
func componentIsNormal(s string, keep *byteSet) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			b := unhex(s[i+1])<<4 | unhex(s[i+2])
			if unreservedSet.has(b) || !isUpperHexOrDigit(s[i+1]) || !isUpperHexOrDigit(s[i+2]) {
				return false
			}
			i += 2
			continue
		}
		if !keep.has(c) {
			return false
		}
	}
	return true
}

func isUpperHexOrDigit(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }
