// Package storage is seedcrawl's one bbolt file: pages, the URL→id seen-set,
// link lists, hosts, robots.txt cache, the stored frontier, runs, counters,
// cycles and their fetch history.
//
// # Ids
//
// Every URL ever seen gets a dense page id from 0 upward in discovery order;
// a page id is a graph node id (graph.Stream). DB.Intern hands out ids
// before anything is written: an in-memory allocator plus a map of the URLs
// interned since the last commit, so RAM holds only the uncommitted batch and
// the seen-set itself lives on disk in the urls bucket. A bounded cache of
// recently looked-up committed URLs (Options.URLCache, at most 32,768 URLs
// by default) answers the links every page of a site repeats without a
// bbolt lookup; it only ever holds ids a read transaction found committed,
// which the append-only urls bucket never changes, so it needs no
// invalidation and kill -9 cannot make it wrong. On a db that held no URL
// when it was opened (a first crawl), a Bloom filter of the URLs interned
// since (about 1.25 bytes each, up to 64M URLs) answers most misses of
// the cache, which are then new URLs, without a lookup either; a URL it
// may hold is looked up as always, so it changes no answer. DB.Commit writes
// every URL interned before it was called, as a page record with status
// queued (when the same batch puts it in the frontier) or discovered,
// together with the batch. Committed ids are therefore always exactly
// 0..n-1. After a crash, ids interned but not committed were referenced by
// nothing committed and are simply allocated again.
//
// Contract for the crawl loop: intern a page's out-links and add that page's
// result, its links and its new frontier entries to the batch under the same
// serialisation as Commit (the loop's disposer). Commit then never stores a
// URL without the result that found it, so a URL is in the seen-set exactly
// when its discoverer's result, and its own frontier entry, are stored too.
// A batch referencing an id interned after Commit started fails with
// ErrUnknownID.
//
// # Crash consistency
//
// One Commit = one bbolt read-write transaction (fsync'd unless
// Options.NoSync). Batch.AddFetch and non-pending Batch.SetStatus remove the
// page from the stored frontier in that same transaction, so after kill -9
// exactly the URLs whose results were not committed are still pending
// (ARCHITECTURE.md). A failing Commit (any error) writes nothing, and leaves
// the interned URLs pending for the next Commit.
//
// # Cycles and history
//
// The current cycle is the highest cycle stored with Batch.PutCycle, or 1 if
// none was ever stored (a plain seedcrawl crawl is cycle 1). Every fetch is
// also written as a FetchRecord keyed (cycle, page), so per-cycle figures and
// per-page histories need no scan of other cycles. Link lists are versioned
// by cycle: a new version is written only when a fetch changes the page's
// list, and a list cleared by a 404 is a version too. The graph as of cycle
// N (DB.AsOf) takes, for every page interned by the end of cycle N
// (CycleStats.NextID; ids are dense, so that is a prefix), its latest list
// version at or before N. The current graph (DB itself, DB.Graph) takes the
// latest version. Both are one cursor pass. Nothing needs migrating when the
// first cycle-2 fetch arrives.
//
// Commit classifies every fetch against the page's previous one (Change:
// new, changed, unchanged, gone) and keeps per-cycle figures (CycleStats),
// among them the retries a batch reports (Batch.AddRetries), which write
// no fetch record but count against a cycle's page budget;
// Page.Novel marks a page that was the first stored with its content hash
// (hashes bucket), which NodeFlags reports for seed evaluation.
//
// A content hash has a kind (HashKind): XXH3-128 now, the first 16 bytes
// of SHA-256 in dbs written before kinds existed, which store no kind and
// read back as HashSHA256. Fetch records store the kind in the hash's
// presence byte, page records in a trailing byte when it is not SHA-256,
// and the hashes bucket keys a SHA-256 hash by its 16 bytes and any other
// kind by the kind byte then its 16 bytes. Hashes of different kinds never
// compare equal. A crawl keeps an unchanged page's SHA-256 hash
// (HashesOf), and in a db that holds SHA-256 hashes (DB.OlderHashes) gives
// each fetch the body's SHA-256 too (Fetch.OlderHash): a new page whose
// body an older build stored is then not Novel, and its XXH3 hash is
// recorded as the older page's, so later copies are found by it alone.
//
// # Bucket layout (schema 1)
//
// All integers in keys are fixed-width big-endian, so cursor order is id or
// cycle order. Names are bucket names at the top level.
//
//	bucket      key                        value
//	meta        "app"                      "seedcrawl"
//	meta        "schema"                   u32 schema version (1)
//	meta        "created"                  u64 unix ns of creation
//	meta        "next_id"                  u64 number of committed pages
//	meta        "cycle"                    u32 current cycle
//	meta        "next_run"                 u64 last run id
//	urls        normalized URL bytes       u64 page id (the seen-set)
//	pages       u64 id                     page record
//	links       u64 src | u32 cycle        link list as of that cycle's fetch
//	hashes      content hash key           u64 first page stored with it
//	fetches     u32 cycle | u64 id         fetch record (last of the page in the cycle)
//	frontier    u64 id                     entry
//	hosts       host name                  host record
//	robots      origin (caller's key)      robots record
//	counters    counter name               u64
//	state       state name                 opaque blob (scheduler state ...)
//	runs        u64 run id                 run record
//	cycles      u32 cycle                  cycle record (set by the crawl loop)
//	cyclestats  u32 cycle                  cycle statistics (maintained by Commit)
//	admitted    host key (host[:port])     u64 pages ever queued or fetched (maintained by Commit)
//	owed        u32 cycle | u64 id         f64 weight | u64 order: refetches a paced recrawl cycle owes (optional)
//
// The admitted bucket is optional: a file written before it existed has
// none until DB.AdmittedByHost builds it (one pass over the pages); from
// then on Commit keeps it in the transaction that changes the pages it
// counts, so it holds after kill -9 as the pages do.
//
// seedcrawl compare adds three buckets, created by its first write (a plain
// crawl's file has none, and Open does not require them):
//
//	compare_meta      "options"            the comparison's options (JSON, the caller's)
//	compare_pages     requested URL bytes  format 1 | status | error | link count | links (each length-prefixed)
//	compare_progress  crawl name           u64 local ids, 8 bytes each: the crawl's download sequence
//
// Each is written in its own transaction (SaveComparePage,
// AppendCompareProgress), apart from the crawl's batches: compare saves a
// page after the crawl committed it and before any progress uses it.
//
// Records are compact binary (encoding/binary varints, no JSON): a format
// byte, then fields in a fixed order; strings and blobs are length-prefixed,
// times are unix nanoseconds (0 for the zero time), floats their IEEE bits.
// Decoders accept trailing bytes and treat missing trailing fields as zero,
// so later versions add fields at the end without a migration. A link list
// is a flags byte, the count, the targets as zig-zag varint deltas (first
// against the source id, then against the previous target), then one kind
// byte per target unless every kind is LinkA.
//
// Page ids are uint64 in the API and on disk; graph streams fail if an id
// does not fit the graph's uint32 node ids.
//
// # Writing
//
// Commit applies, in this order: a cycle record (Batch.PutCycle), the
// interned URLs (urls bucket in key order, page records in id order), the
// fetches and status changes in call order (page records read, merged and
// rewritten; content hashes looked up), then the deferred puts of link list
// versions, fetch records and new content hashes, each sorted by key, then
// frontier puts and deletes by id, hosts, counters, state blobs, runs, the
// cycle's statistics and the meta counters. Keys and values put are carved
// from append-only buffers, never reused within the transaction (bbolt keeps
// references until commit). Sorting matters: bbolt splits nodes only at
// commit, so thousands of out-of-order inserts into a young bucket are
// quadratic (storing cnr-2000 took minutes before, seconds after).
//
// Host counters (Host.Fetches ...) come from Fetch.Host; host ready times
// from Batch.SetHostReady. Robots entries (LoadRobots, SaveRobots) are a
// cache written in their own transactions; package robots' Store is adapted
// by the crawl loop, since storage imports no project package.
//
// # Reading
//
// Reads use managed read transactions and copy what they return. Callback
// iterators (EachPage, EachLink, EachOut, ...) call fn inside one read
// transaction for a single cursor pass; fn must be quick (append to a slice,
// write a line) and must not call back into the DB's write methods. Bytes
// passed to callbacks are valid only during the call. A panic in fn reaches
// the caller unchanged.
//
// DB is a graph.Stream over the current graph, reading the latest commit in
// each of Nodes, EachNode and EachOut; DB.Graph returns a View that pins the
// node count, for loading while this process goes on committing (reseeding
// during a crawl). DB.AsOf(N) is the graph as of cycle N.
//
// # Locking and corruption
//
// bbolt takes an flock on the file: a second Open of the same file (another
// process, or another DB in this process: flock is per open file
// description) fails with ErrLocked after Options.LockTimeout (1 s), naming
// the file and, on Linux, the holder's pid from /proc/locks. Open checks the
// bbolt meta pages itself before handing the file to bbolt, so a file of
// garbage or a truncated file is ErrCorrupt instead of a crash, and every
// transaction converts a bbolt panic on a damaged page into ErrCorrupt.
package storage
