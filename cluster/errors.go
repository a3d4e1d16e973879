package cluster

import "errors"

var (
	// ErrOptions reports a missing or invalid option.
	ErrOptions = errors.New("cluster: invalid options")
	// ErrPayload reports a URL message that cannot be decoded.
	ErrPayload = errors.New("cluster: malformed URL message")
	// ErrNotLeader is returned by Elect when another node holds the lock.
	ErrNotLeader = errors.New("cluster: another node leads")
	// ErrPublished is returned by PublishSeeds when the cycle's seeds are
	// published already.
	ErrPublished = errors.New("cluster: seeds of the cycle already published")
	// ErrNoSeeds is returned by Seeds when no seeds were published for the
	// cycle yet.
	ErrNoSeeds = errors.New("cluster: no seeds published for the cycle")
)
