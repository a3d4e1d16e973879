package monitor

import "strconv"

// Fetch is one recorded fetch as a run's counters count it (Count): the
// keys a crawl adds for a page's final outcome.
type Fetch struct {
	// Status is the page's status ("fetch/" + Status).
	Status string
	// Failure names a failed fetch (FailureName; "error/" + Failure); ""
	// when the fetch did not fail.
	Failure string
	// Truncated: the body was cut at the size limit ("truncated").
	Truncated bool
	// Rejects are the trap-guard and URL rejections of the page's links,
	// one reason per distinct link ("reject/" + reason).
	Rejects []string
	// TooMany are the distinct links beyond the out-link cap
	// ("reject/too-many-links"), NoFollow the links not followed
	// (rel=nofollow, meta robots nofollow: "skip/nofollow").
	TooMany, NoFollow int
	// Refresh: a refetch of a page fetched in an earlier cycle of a
	// recrawl ("refresh/fetched").
	Refresh bool
}

// Count calls add with every counter f adds and its increment.
func (f *Fetch) Count(add func(key string, n uint64)) {
	add("fetch/"+f.Status, 1)
	if f.Failure != "" {
		add("error/"+f.Failure, 1)
	}
	if f.Truncated {
		add("truncated", 1)
	}
	for _, r := range f.Rejects {
		add("reject/"+r, 1)
	}
	if f.TooMany > 0 {
		add("reject/too-many-links", uint64(f.TooMany))
	}
	if f.NoFollow > 0 {
		add("skip/nofollow", uint64(f.NoFollow))
	}
	if f.Refresh {
		add("refresh/fetched", 1)
	}
}

// FailureName names a failed fetch for counting ("error/", "retry/"): its
// reason (but noindex, which a fetched page's record may carry), else its
// HTTP code.
func FailureName(reason string, code int) string {
	if reason != "" && reason != "noindex" {
		return reason
	}
	return "http-" + strconv.Itoa(code)
}
