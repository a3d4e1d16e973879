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
	base, err := b.url()
	if err != nil {
		return "", err
	}
	u, err := parser.BasicParser(ref, base, nil, wurl.NoState)
	if err != nil {
		return "", err
	}
	return serialize(u)
}

// slowBase is NewBase without the fast path: the base parsed by WHATWG
// and split from its serialization.
func slowBase(raw string) (*Base, error) {
	u, err := parser.Parse(raw)
	if err != nil {
		return nil, err
	}
	b := &Base{raw: raw, u: u}
	b.once.Do(func() {})
	b.fast = newFastBase(u)
	return b, nil
}
