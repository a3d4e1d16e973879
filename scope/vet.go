package scope

import (
	"fmt"

	"github.com/seedcrawl/seedcrawl/extract"
	"github.com/seedcrawl/seedcrawl/storage"
)

// linkKinds maps each extract.Kind to the storage kind of its name, looked
// up once for a Rules rather than for every link.
func linkKinds() (kinds [256]storage.LinkKind) {
	for k := range kinds {
		kind, err := storage.ParseLinkKind(extract.Kind(k).String())
		if err != nil {
			kind = storage.LinkOther
		}
		kinds[k] = kind
	}
	return kinds
}

// Extractor returns the extractor of the crawl's links, whose Keep is
// InScope (Extracted reads its answer): the settings' robots token,
// nofollow and link selector apply. The cap counts distinct links the
// crawl would follow (in scope), so long real pages keep theirs while a
// page of junk costs no more than the caps; out-of-scope links are
// recorded up to as many again.
func (r *Rules) Extractor() (*extract.Extractor, error) {
	s := &r.opts.Settings
	return extract.New(extract.Options{
		Token:        s.RobotsToken,
		Keep:         r.keep,
		MaxLinks:     s.MaxOutLinks,
		MaxOther:     s.MaxOutLinks,
		SkipNoFollow: s.RespectNofollow,
		LinkSelector: s.LinkSelector,
	})
}

// Extracted vets links an extractor found on a page (extract.Followed),
// whose Keep was InScope (extract.Link.Kept is its answer), as Checked
// does: it returns the links that pass, in order, and adds to rejects why
// each other one was refused. A link with a Note (a link the extractor's
// memo remembers) is vetted once, the first time, and brings what Admission
// learns of it to the crawl's later pages.
func (r *Rules) Extracted(links []extract.Link, rejects []string) ([]Link, []string) {
	out := make([]Link, 0, len(links))
	for _, l := range links {
		if l.Note != nil {
			v := r.noted(l.URL, l.Note)
			if !v.ok {
				rejects = append(rejects, v.reason)
				continue
			}
			out = append(out, Link{URL: l.URL, Host: v.host, Kind: r.kinds[l.Kind], InScope: l.Kept, note: v})
			continue
		}
		cand, reason, ok := r.Checked(l.URL, r.kinds[l.Kind], l.Kept)
		if !ok {
			rejects = append(rejects, reason)
			continue
		}
		out = append(out, cand)
	}
	return out, rejects
}

// OutLinks reads a page's stored out-links; *storage.DB implements it.
type OutLinks interface {
	OutLinks(src uint64) ([]storage.OutLink, error)
}

// Stored reads the stored out-links of page id from st and vets them again
// (a page answering 304, or traversed by a recrawl): the links a guard
// tightened since refuses are left out, as they are not followed now.
func (r *Rules) Stored(st OutLinks, id uint64) ([]Link, error) {
	links, err := st.OutLinks(id)
	if err != nil {
		return nil, fmt.Errorf("scope: stored links of %d: %w", id, err)
	}
	out := make([]Link, 0, len(links))
	for _, l := range links {
		if cand, _, ok := r.Vet(l.URL, l.Kind); ok {
			out = append(out, cand)
		}
	}
	return out, nil
}
