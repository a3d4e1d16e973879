package frontier

// Hold tells Next that URLs may still come from outside the jobs in
// flight: while a job's outcome is being applied (a site's sitemaps are
// added after its first page's Done), or while a feed of URLs from other
// nodes or a comparison goes on. Until the matching Release, Next parks on
// a frontier with nothing queued and nothing in flight instead of
// returning ErrExhausted, and wakes as URLs come; if its ctx ends while it
// is parked so, its error wraps both ErrExhausted and ctx's error (it was
// dry when stopped). Holds nest.
func (f *Frontier) Hold() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.holds++
}

// Release ends one Hold; after the last, a dry frontier is exhausted and
// the Next calls parked on it return ErrExhausted.
func (f *Frontier) Release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.holds == 0 {
		panic("frontier: Release without Hold")
	}
	f.holds--
	f.notify()
}
