// Package warc writes and reads WARC/1.1 files (ISO 28500:2017, "The WARC
// Format 1.1") for a crawl that keeps what it fetched.
//
// A Writer turns each fetched exchange (the exact request and response
// bytes fetch.Capture recorded on the wire) into a response record and a
// request record linked by WARC-Concurrent-To, or into a revisit record
// when nothing new was received:
//
//   - profile server-not-modified for a 304 response, whose block is the
//     304 message itself;
//   - profile identical-payload-digest for a 2xx response whose payload
//     digest was written before, whose block is the response head only and
//     which names the earlier capture in WARC-Refers-To,
//     WARC-Refers-To-Target-URI and WARC-Refers-To-Date. Earlier digests
//     are looked up through the DigestStore interface the Writer declares,
//     so a crawl can keep them in its own database across runs; the
//     default is a bounded in-memory table.
//
// Digests are SHA-1 in base32 ("sha1:" + 32 characters), as Heritrix,
// wget and warcprox write them: WARC-Block-Digest over the record block,
// WARC-Payload-Digest over the HTTP entity body (chunked transfer coding
// removed, content coding such as gzip kept, as the specification defines
// the payload).
//
// Each file starts with a warcinfo record; each record is its own gzip
// member, so a reader can seek to any record and a crash leaves only whole
// records: a record pair is compressed in memory and handed to the file in
// one write. Files are named PREFIX-TIMESTAMP-SERIAL.warc.gz and rotate
// when they would exceed Options.MaxSize or hold Options.MaxRecords
// records. Beside each WARC file the Writer writes a sorted CDXJ index
// (PREFIX-TIMESTAMP-SERIAL.cdxj, one line per response or revisit record:
// SURT key, 14-digit timestamp, JSON with url, mime, status, digest,
// length, offset and filename) when the file is closed. A file whose
// writer was killed has none: the next Open in the directory indexes it,
// first cutting it back to its last whole record if the kill came in the
// middle of a write or a power cut zeroed its end (each open file is
// locked, so a file another live Writer holds is left alone). Only the
// Writer's own files are cut (their warcinfo record names them), and only
// the records of a partial last record pair that are not whole: the whole
// pair, or its request when its response is whole, which stays and is
// indexed. Stored bytes that hold a whole record are never lost.
// Writer.Recovered says how many bytes were cut (a cut is marked in a file
// NAME.cut first, so even a recovery killed after it is reported by the
// next Open), and lists files whose index a power cut left empty or cut
// short, redone; a file recovery cannot index safely (damaged, another
// tool's layout cut short, a symbolic link) is left as it was, and
// Writer.Unrecovered says why. IndexFile indexes any WARC file.
//
// A Reader iterates the records of a .warc.gz or plain .warc stream and
// validates their block and payload digests.
package warc
