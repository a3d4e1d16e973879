package extract

// Followed is what a crawler takes from a page: Extractor.Follow.
type Followed struct {
	// Links are the page's distinct links to follow, each with a URL, in
	// document order. Hand the slice to Recycle once done with it.
	Links []Link
	// Rejects name why each distinct link without a URL was refused
	// (Link.Reject).
	Rejects []string
	// NoFollow counts the links left out as not to be followed (see
	// Follow).
	NoFollow int
	// Dropped counts the distinct links beyond the caps (Page.Dropped).
	Dropped int
	// Robots are the page's robots directives merged with those of the
	// response's X-Robots-Tag header.
	Robots Robots
}

// Follow extracts a page's links as Extract does and keeps those a crawler
// follows. robotsTag is the response's X-Robots-Tag header ("" if none).
// With Options.SkipNoFollow, a polite crawler's setting, rel=nofollow
// links and every link of a page whose robots directives say nofollow are
// left out, counted in NoFollow: the link graph holds the links a polite
// crawler follows. The error is Extract's; Dropped and NoFollow are set
// even then.
func (e *Extractor) Follow(pageURL string, body []byte, charset, robotsTag string) (Followed, error) {
	page, err := e.Extract(pageURL, body, charset)
	f := Followed{NoFollow: page.NoFollowSkipped, Dropped: page.Dropped}
	if err != nil {
		return f, err
	}
	f.Robots = page.Robots.Merge(robotsTag)
	allNofollow := e.opts.SkipNoFollow && f.Robots.NoFollow
	// Kept in place: the links followed fill the front of the page's
	// slice, which Recycle takes back.
	f.Links = page.Links[:0]
	for _, l := range page.Links {
		switch {
		case l.URL == "":
			f.Rejects = append(f.Rejects, l.Reject)
		case allNofollow || e.opts.SkipNoFollow && l.NoFollow:
			f.NoFollow++
		default:
			f.Links = append(f.Links, l)
		}
	}
	return f, nil
}
