package urlnorm

import wurl "github.com/nlnwa/whatwg-url/url"

// slowNormalize and slowResolve are Normalize and Base.Resolve without the
// fast path, the reference the fast path is checked against.
func slowNormalize(raw string) (string, error) {
	u, err := parser.Parse(raw)
	if err != nil {
		return "", err
	}
	return serialize(u)
}

func slowResolve(b *Base, ref string) (string, error) {
	u, err := parser.BasicParser(ref, b.u, nil, wurl.NoState)
	if err != nil {
		return "", err
	}
	return serialize(u)
}
