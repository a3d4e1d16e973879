package robots

import "github.com/seedcrawl/seedcrawl/storage"

// SkipStatus is the status stored for a URL the frontier hands out
// without a request, with reason as its Job.Skip: robots.txt disallows it
// (robots-denied), its origin's address was refused (rejected), or its
// host is deferred or dropped (robots.txt unreachable, Crawl-delay above
// the cap: deferred).
func SkipStatus(reason string) storage.Status {
	switch reason {
	case ReasonDisallowed:
		return storage.StatusRobotsDenied
	case ReasonPrivateAddress:
		return storage.StatusRejected
	}
	return storage.StatusDeferred
}
