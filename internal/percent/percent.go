package percent

import "strings"

// Set is a set of bytes: those a component keeps as they are.
type Set [4]uint64

// MakeSet returns the set of the bytes of chars.
func MakeSet(chars string) Set {
	var s Set
	for i := 0; i < len(chars); i++ {
		c := chars[i]
		s[c>>6] |= 1 << (c & 63)
	}
	return s
}

// Has reports whether c is in s.
func (s *Set) Has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// Unreserved are the unreserved characters of RFC 3986 section 2.3: an
// escape of one of them is decoded.
const Unreserved = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"

var unreservedSet = MakeSet(Unreserved)

const upperHex = "0123456789ABCDEF"

// IsHex reports whether c is a hexadecimal digit of either case.
func IsHex(c byte) bool {
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

func isUpperHexOrDigit(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }

// escapeAt reports whether the '%' at s[i] starts an escape (two hex
// digits follow), and the byte it encodes.
func escapeAt(s string, i int) (byte, bool) {
	if i+2 >= len(s) || !IsHex(s[i+1]) || !IsHex(s[i+2]) {
		return 0, false
	}
	return unhex(s[i+1])<<4 | unhex(s[i+2]), true
}

// Write writes s to sb with its percent-encoding normalized: an escape of
// an unreserved byte is decoded, other escapes get upper-case hex, a byte
// in keep is written as it is and any other byte is escaped. A '%' that
// starts no escape is a byte like any other: written as it is if keep has
// '%', else as "%25".
func Write(sb *strings.Builder, s string, keep *Set) {
	if IsNormal(s, keep) {
		sb.WriteString(s)
		return
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if b, ok := escapeAt(s, i); ok {
				if unreservedSet.Has(b) {
					sb.WriteByte(b)
				} else {
					writeEscape(sb, b)
				}
				i += 2
				continue
			}
		}
		if keep.Has(c) {
			sb.WriteByte(c)
		} else {
			writeEscape(sb, c)
		}
	}
}

// Normalize returns what Write writes; s itself when it is normal, which
// is the common case and allocates nothing.
func Normalize(s string, keep *Set) string {
	if IsNormal(s, keep) {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s) + 8)
	Write(&sb, s, keep)
	return sb.String()
}

// IsNormal reports whether Write would copy s unchanged.
func IsNormal(s string, keep *Set) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if b, ok := escapeAt(s, i); ok {
				if unreservedSet.Has(b) || !isUpperHexOrDigit(s[i+1]) || !isUpperHexOrDigit(s[i+2]) {
					return false
				}
				i += 2
				continue
			}
		}
		if !keep.Has(c) {
			return false
		}
	}
	return true
}

func writeEscape(sb *strings.Builder, c byte) {
	sb.WriteByte('%')
	sb.WriteByte(upperHex[c>>4])
	sb.WriteByte(upperHex[c&15])
}
