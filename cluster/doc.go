// Package cluster runs one seedcrawl crawl on several nodes that share
// hosts by rendezvous hashing and exchange URLs over NATS JetStream.
//
// Ownership: every host belongs to exactly one of K nodes (Ring, highest
// random weight), so politeness state, robots.txt and the frontier of a
// host live on one node and its bbolt file.
//
// Message flow: a node that discovers a URL whose host another node owns
// publishes it (Node.Handoff) to that node's subject PREFIX.urls.N of one
// work-queue stream, with Nats-Msg-Id = a hash of the normalized URL so
// JetStream drops repeats inside its duplicate window, and with the
// priority mass and depth in the payload. Flush waits for every publish
// acknowledgement; the crawl commits the page that linked to the URL only
// after, so a URL is never lost when the discovering node dies. The owner
// reads its durable pull consumer, hands the URLs to the local crawl
// (Local.Inject, which returns once they are committed to the db
// frontier) and only then acknowledges them, so a URL is never lost when
// the owner dies either: it is redelivered and the owner's seen-set drops
// what it already has.
//
// Termination (Node.Done): each node keeps a record in a key-value
// bucket: idle, busy or stopped, and an epoch that grows every time the
// node leaves the idle state. A node turns busy (synchronously, before it
// acknowledges anything) when URLs arrive, reports idle when its local
// crawl has nothing queued, nothing in flight and nothing uncommitted, and
// stopped when it leaves early (Leave: a budget, a deadline, SIGINT). The
// crawl is done when two reads of all K records, around one read of the
// stream's per-subject counts, show every node idle or stopped, the same
// records twice, and no message stored for a node that is not stopped: a
// message published before a node reported idle is either still stored or
// was acknowledged by an owner that turned busy first (its epoch changed).
// Node 0 checks every Poll and sets a done flag; the others read the flag
// and check themselves only every 16th Poll, so the cost stays O(K).
//
// Election (Elect): one node of a recrawl cycle wins a key-value lock with
// a TTL and publishes the cycle's seeds (PublishSeeds); the others read
// them (Seeds).
package cluster
