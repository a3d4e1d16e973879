package seeds

import "github.com/seedcrawl/seedcrawl/urlnorm"

// MinCalendarPages is how many dated URLs of one date template (see
// urlnorm.DateTemplate: "/calendar/{y}/{m}/") make a calendar: its pages
// are a crawler trap's, not seeds. Dated pages with their own names (blog
// posts) have templates of their own and are not affected.
const MinCalendarPages = 10

// TrapLike marks the URLs that look like a crawler trap's pages: those of a
// date template shared by at least MinCalendarPages URLs. urls[v] is node
// v's URL ("" for none); the result is indexed alike.
func TrapLike(urls []string) []bool {
	count := map[string]int{}
	tmpl := make([]string, len(urls))
	for v, u := range urls {
		if t, ok := urlnorm.DateTemplate(u); ok {
			tmpl[v] = t
			count[t]++
		}
	}
	out := make([]bool, len(urls))
	for v, t := range tmpl {
		out[v] = t != "" && count[t] >= MinCalendarPages
	}
	return out
}

// withoutTrapLike returns candidates (nil: all) with the trap-like URLs
// removed; it does not modify candidates.
func withoutTrapLike(candidates []bool, urls []string) []bool {
	trap := TrapLike(urls)
	out := make([]bool, len(urls))
	for v := range out {
		out[v] = !trap[v] && (candidates == nil || candidates[v])
	}
	return out
}
