// Package cluster runs one seedcrawl crawl on several nodes that share
// hosts by rendezvous hashing and exchange URLs over NATS JetStream.
//
// Ownership: every host belongs to exactly one of K nodes (Ring, highest
// random weight), so politeness state, robots.txt and the frontier of a
// host live on one node and its bbolt file.
//
// Message flow: a node hands every link to a URL whose host another node
// owns (Node.Handoff) to that node's subject PREFIX.urls.N of one
// work-queue stream, with the link's depth and the priority mass the
// scheduler gave the link: the crawl's frontier prices such a link like
// any other out-link (frontier.Target.Remote) and the owner adds the mass
// to the URL's priority as a local link would (frontier.Credit). A link
// to a URL already handed off is sent again only when it carries mass or
// a shorter path. The message id (Nats-Msg-Id) names the contribution:
// URL, node, discovering page and cycle, so a page refetched after a crash
// does not add its mass twice within the stream's duplicate window, while
// two pages' shares to one URL are both kept. Flush waits for every
// publish acknowledgement; the crawl commits the page that linked to the
// URLs only after, so a URL is never lost when the discovering node dies.
// The owner reads its durable pull consumer, hands the URLs to the local
// crawl (Local.Inject, which returns once they are committed to the db
// frontier) and only then acknowledges them, so a URL is never lost when
// the owner dies either: it is redelivered and the owner's seen-set drops
// what it already has.
//
// How far FPR is exact: for fpr and fpr@M, whose update is additive, a
// URL's priority on its owner is the sum of the same shares one process
// computes: the seeds' (1−d)/|S| counts all seeds of the cluster, and
// every downloaded in-link's share d·f/N_p (M-weighted across hosts) is
// computed by the discovering node with its page's priority and all its
// out-links, and added by the owner. Given the same sequence of downloads,
// every page is handed out with exactly the priority one process gives it
// when each share arrives before its target is handed out
// (TestFPRAcrossNodes, bit for bit). What differs is time: a share crosses
// nodes at the discovering node's next commit plus the owner's next pull
// (about CommitInterval + Poll), so a URL can be handed out before a
// remote share arrives (that share is then dropped, as one process drops
// the share of a downloaded target), and each node picks its own best URL
// concurrently, so the global download order interleaves K queues instead
// of following one. Shares are summed in arrival order (the float sums can
// differ in the last bits), and a share redelivered after the owner
// committed it but died before acknowledging is added twice. Schedulers
// that rank by a function of the URL id (random, omniscient, the history
// prior) see per-node ids: they are approximate across nodes.
//
// Depth: a pending URL keeps the least depth of the links found to it,
// local or remote, and a URL known only beyond MaxDepth is queued when a
// shorter path arrives. A URL already fetched keeps the depth it was
// fetched at (as in one process): a shorter path found after its fetch
// does not lower its descendants' depths.
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
// Membership (Rebalance, WaitSettled, Preload, Drain): a node db records
// the K it was last settled for. When K changes, each node hands the hosts
// it no longer owns to their new owners before anyone crawls: queued URLs
// with their priority and depth, settled ones (fetched, rejected) marked
// Known so the new owner never fetches them again. Every node waits until
// all previous owners did (WaitSettled), records the Known markers stored
// for it (Preload) before its crawl starts, and forwards messages sent to
// it under the old membership. A removed node runs once as Leaving: it
// hands over all its hosts and forwards what is stored for it (Drain).
// Taking over a dead node's hosts while it is down is not done: its hosts
// wait until it restarts.
//
// The crawl's side (Crawl): a node's crawl gets a Crawl as its
// crawler.Feed, which makes it a crawler.Cluster. The crawler asks Owns
// for every admitted link and gives each page's targets to Handoff once
// the frontier computed their shares; Crawl takes the Remote ones (the
// others' URLs), drops a repeat that brings neither mass nor a shorter
// path and publishes the rest (Node.Handoff). The
// crawler calls Flush before every commit. Crawl is also the node's
// Local: Inject applies arrivals on the crawl's disposer (crawler.Loop.Post)
// as local links would be applied (Loop.Offer, Loop.Credit), records Known
// ones as seen, and commits before it returns; Idle is the crawl's
// (Loop.Idle).
//
// Election (Elect, AgreeSeeds): in a recrawl cycle the first node to ask
// wins a key-value lock with a TTL and publishes its seed selection once
// (PublishSeeds); the others crawl it (Seeds).
//
// Linking the embedded server has a cost in every seedcrawl process, not
// only in a cluster's: nats-server's process sampler reads /proc/PID/stat
// every second from package init, for monitoring pages seedcrawl does not
// serve. main calls StopProcessSampler first thing (sampler_linux.go).
package cluster
