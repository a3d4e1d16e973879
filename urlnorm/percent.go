package urlnorm

import "github.com/seedcrawl/seedcrawl/internal/percent"

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
//
// None has '%': one that starts no escape is written "%25".
var (
	pathKeep  = percent.MakeSet(percent.Unreserved + "!$&'()*+,;=" + ":@/")
	queryKeep = percent.MakeSet(percent.Unreserved + "!$&()*+,;=" + ":@/?")
)
