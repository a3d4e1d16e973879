package warc

import (
	"net"
	"net/url"
	"sort"
	"strings"
)

// SURT returns the Sort-friendly URI Reordering Transform of u used as the
// key of CDX indexes: scheme and userinfo dropped, host lower-cased with
// its labels reversed and comma-separated and a leading "www" label
// dropped, the port kept unless it is the scheme's default, then ")" and
// the path, and the query with its parameters sorted, all lower-cased
// ("http://www.Example.com/A?b=1&a=2" gives "com,example)/a?a=2&b=1"), the
// canonical form wayback tools look URLs up by. A URL that does not parse
// is returned lower-cased.
func SURT(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return strings.ToLower(u)
	}
	host := strings.TrimSuffix(strings.ToLower(p.Hostname()), ".")
	if net.ParseIP(host) == nil {
		labels := strings.Split(host, ".")
		if len(labels) > 2 && labels[0] == "www" {
			labels = labels[1:]
		}
		for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
			labels[i], labels[j] = labels[j], labels[i]
		}
		host = strings.Join(labels, ",")
	}
	var sb strings.Builder
	sb.WriteString(host)
	if port := p.Port(); port != "" && !(p.Scheme == "http" && port == "80") && !(p.Scheme == "https" && port == "443") {
		sb.WriteString(":" + port)
	}
	sb.WriteString(")")
	path := p.EscapedPath()
	if path == "" {
		path = "/"
	}
	sb.WriteString(strings.ToLower(path))
	if p.RawQuery != "" {
		params := strings.Split(p.RawQuery, "&")
		sort.Strings(params)
		sb.WriteString("?" + strings.ToLower(strings.Join(params, "&")))
	}
	return sb.String()
}
