package warc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/seedcrawl/seedcrawl/internal/version"
)

// Defaults for Options' zero fields.
const (
	DefaultPrefix     = "seedcrawl"
	DefaultMaxSize    = 1 << 30
	DefaultMaxRecords = 100_000
)

// Options configure a Writer. Zero fields take the default in their
// comment.
type Options struct {
	// Dir is the directory the WARC and CDXJ files go to; created if
	// missing. Required.
	Dir string
	// Prefix starts every file name. Default "seedcrawl".
	Prefix string
	// MaxSize is the size (compressed bytes) a file is rotated at: a
	// record pair that would take a file past it starts the next file (a
	// single pair larger than MaxSize still gets written, alone). Default
	// 1 GiB.
	MaxSize int64
	// MaxRecords is how many response and revisit records a file holds at
	// most; it bounds the memory of the file's CDXJ index, which is kept
	// until the file is closed (about 300 bytes per record). Default
	// 100,000.
	MaxRecords int
	// Level is the gzip level, 1 (fastest) to 9 (smallest). Default 1: a
	// crawl's CPU is better spent fetching, and WARCs are usually
	// recompressed for long-term storage anyway.
	Level int
	// Software names the writing program in warcinfo. Default
	// version.UserAgent.
	Software string
	// Info are extra warcinfo fields (operator, description, robots
	// policy, ...), written in order after the standard ones.
	Info Header
	// Digests finds earlier captures of a payload for revisit records.
	// Default NewMemoryDigests(DefaultDigestEntries).
	Digests DigestStore
	// Now is the clock for file names and for exchanges without a Date;
	// called from every writing goroutine, so it must be safe for
	// concurrent use. Default time.Now.
	Now func() time.Time
}

// Exchange is one HTTP request and its response as they crossed the wire
// (fetch.Capture), with where and when.
type Exchange struct {
	// URL is the requested URL (WARC-Target-URI). Required.
	URL string
	// Date is when the request was sent (WARC-Date). Zero: now.
	Date time.Time
	// IP is the server's IP address (WARC-IP-Address); "" omits it.
	IP string
	// Request is the request as written; nil writes no request record.
	Request []byte
	// Response is the response as read: status line, headers and body,
	// transfer and content codings intact. Required.
	Response []byte
	// Truncated marks a response cut before its end (the body limit, a
	// broken connection): the record gets WARC-Truncated and its payload
	// is not used for deduplication.
	Truncated bool
	// Truncation is the WARC-Truncated value of a Truncated response:
	// TruncatedLength (also when empty), TruncatedTime,
	// TruncatedDisconnect or TruncatedUnspecified; any other value is
	// written as TruncatedUnspecified.
	Truncation string
	// RefersToDate is, for a 304 response, when URL was last captured in
	// full (WARC-Refers-To-Date of the server-not-modified revisit);
	// zero omits it.
	RefersToDate time.Time
}

// Result tells where an exchange's response (or revisit) record went.
type Result struct {
	// Type is TypeResponse or TypeRevisit.
	Type string
	// RecordID is the record's WARC-Record-ID.
	RecordID string
	// File is the WARC file's base name.
	File string
	// Offset and Length locate the record's gzip member in File.
	Offset, Length int64
	// PayloadDigest is the WARC-Payload-Digest ("" if the response did
	// not parse as HTTP, or for a 304).
	PayloadDigest string
	// Status is the HTTP status of the response (0 if it did not parse).
	Status int
}

// Writer writes exchanges to rotating WARC files. It is safe for
// concurrent use: record pairs are built and compressed by the calling
// goroutine, and only the append to the file is serialized.
type Writer struct {
	opts Options
	gz   sync.Pool // *gzip.Writer

	mu      sync.Mutex
	closed  bool
	f       *os.File
	name    string // base name of the current file
	size    int64
	records int      // response and revisit records in the current file
	index   []string // CDXJ lines of the current file
	serial  int
	files   []string

	recovered   []Recovery // files without an index that Open indexed
	unrecovered []error    // files without an index Open left, why
}

// Open creates opts.Dir if needed and starts the first WARC file with its
// warcinfo record. Files of an earlier Writer with the same prefix that was
// killed before it closed them get their CDXJ index first, cut back to
// their last whole record if the kill came mid-write (Recovered lists
// them), and so do files whose index a power cut left empty or cut short;
// a file another live Writer holds is left alone. A file that
// cannot be recovered (not a WARC from its first byte, damaged before
// whole records, failing its digests, unreadable, or one that cannot be
// written, cut or indexed) is skipped, left without an index, and
// Unrecovered says why: it does not make Open fail.
func Open(opts Options) (*Writer, error) {
	if opts.Dir == "" {
		return nil, fmt.Errorf("warc: open: %w: no directory", ErrOptions)
	}
	if opts.MaxSize < 0 || opts.MaxRecords < 0 || opts.Level < 0 || opts.Level > gzip.BestCompression {
		return nil, fmt.Errorf("warc: open %s: %w: negative size or gzip level outside 1-9", opts.Dir, ErrOptions)
	}
	if opts.Prefix == "" {
		opts.Prefix = DefaultPrefix
	}
	if strings.ContainsAny(opts.Prefix, `/\`) {
		return nil, fmt.Errorf("warc: open: %w: prefix %q holds a path separator", ErrOptions, opts.Prefix)
	}
	if opts.MaxSize == 0 {
		opts.MaxSize = DefaultMaxSize
	}
	if opts.MaxRecords == 0 {
		opts.MaxRecords = DefaultMaxRecords
	}
	if opts.Level == 0 {
		opts.Level = gzip.BestSpeed
	}
	if opts.Software == "" {
		opts.Software = version.UserAgent
	}
	if opts.Digests == nil {
		opts.Digests = NewMemoryDigests(DefaultDigestEntries)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("warc: open: %w", err)
	}
	recovered, failed, err := recoverFiles(opts.Dir, opts.Prefix)
	if err != nil {
		return nil, fmt.Errorf("warc: open: %w", err)
	}
	w := &Writer{opts: opts, recovered: recovered, unrecovered: failed}
	w.gz.New = func() any {
		zw, _ := gzip.NewWriterLevel(nil, opts.Level) // level checked above
		return zw
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.openFile(); err != nil {
		return nil, err
	}
	return w, nil
}

// WriteExchange writes one exchange: a response record (or a revisit
// record, see the package documentation) followed by the request record,
// both in one write. ctx bounds the DigestStore calls.
func (w *Writer) WriteExchange(ctx context.Context, ex Exchange) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("warc: write %s: %w", ex.URL, err)
	}
	if ex.URL == "" || len(ex.Response) == 0 {
		return Result{}, fmt.Errorf("warc: write %q: %w: URL and response bytes are required", ex.URL, ErrExchange)
	}
	date := ex.Date
	if date.IsZero() {
		date = w.opts.Now()
	}
	msg := parseHTTP(ex.Response)
	res := Result{Type: TypeResponse, RecordID: newRecordID(), Status: msg.status}
	reqID := ""
	if len(ex.Request) > 0 {
		reqID = newRecordID()
	}
	dedupable := msg.ok && msg.status >= 200 && msg.status < 300 && len(msg.payload) > 0 && !ex.Truncated
	if msg.ok && msg.status != 304 {
		res.PayloadDigest = Digest(msg.payload)
	}

	h := make(Header, 0, 14)
	h = append(h, Field{"WARC-Type", TypeResponse}, Field{"WARC-Record-ID", res.RecordID},
		Field{"WARC-Date", warcDate(date)}, Field{"WARC-Target-URI", ex.URL})
	if ex.IP != "" {
		h = append(h, Field{"WARC-IP-Address", ex.IP})
	}
	if reqID != "" {
		h = append(h, Field{"WARC-Concurrent-To", reqID})
	}
	block := ex.Response
	switch {
	case msg.status == 304:
		res.Type = TypeRevisit
		h = append(h, Field{"WARC-Profile", ProfileServerNotModified}, Field{"WARC-Refers-To-Target-URI", ex.URL})
		if !ex.RefersToDate.IsZero() {
			h = append(h, Field{"WARC-Refers-To-Date", warcDate(ex.RefersToDate)})
		}
	case dedupable:
		ref, ok, err := w.opts.Digests.Get(ctx, res.PayloadDigest)
		if err != nil {
			return Result{}, fmt.Errorf("warc: write %s: look up digest %s: %w", ex.URL, res.PayloadDigest, err)
		}
		if ok {
			res.Type = TypeRevisit
			block = msg.head
			h = append(h, Field{"WARC-Profile", ProfileIdenticalPayload})
			if ref.RecordID != "" {
				h = append(h, Field{"WARC-Refers-To", ref.RecordID})
			}
			h = append(h, Field{"WARC-Refers-To-Target-URI", ref.URI}, Field{"WARC-Refers-To-Date", warcDate(ref.Date)})
		}
	}
	h[0].Value = res.Type
	if ex.Truncated && res.Type == TypeResponse {
		h = append(h, Field{"WARC-Truncated", truncation(ex.Truncation)})
	}
	h = append(h, Field{"WARC-Block-Digest", Digest(block)})
	if res.PayloadDigest != "" {
		h = append(h, Field{"WARC-Payload-Digest", res.PayloadDigest})
	}
	h = append(h, Field{"Content-Type", "application/http;msgtype=response"})

	var buf bytes.Buffer
	head := appendRecordHead(make([]byte, 0, 1024), h, len(block))
	if err := w.compress(&buf, head, block); err != nil {
		return Result{}, fmt.Errorf("warc: write %s: %w", ex.URL, err)
	}
	res.Length = int64(buf.Len())
	if reqID != "" {
		rh := Header{{"WARC-Type", TypeRequest}, {"WARC-Record-ID", reqID}, {"WARC-Date", warcDate(date)},
			{"WARC-Target-URI", ex.URL}}
		if ex.IP != "" {
			rh = append(rh, Field{"WARC-IP-Address", ex.IP})
		}
		rh = append(rh, Field{"WARC-Concurrent-To", res.RecordID}, Field{"WARC-Block-Digest", Digest(ex.Request)},
			Field{"Content-Type", "application/http;msgtype=request"})
		if err := w.compress(&buf, appendRecordHead(head[:0], rh, len(ex.Request)), ex.Request); err != nil {
			return Result{}, fmt.Errorf("warc: write %s: %w", ex.URL, err)
		}
	}
	mime := msg.contentType
	if res.Type == TypeRevisit {
		mime = "warc/revisit"
	}
	if err := w.append(buf.Bytes(), &res, ex.URL, date, mime); err != nil {
		return Result{}, err
	}
	if dedupable && res.Type == TypeResponse {
		ref := Ref{URI: ex.URL, Date: date, RecordID: res.RecordID}
		if err := w.opts.Digests.Put(ctx, res.PayloadDigest, ref); err != nil {
			return res, fmt.Errorf("warc: write %s: remember digest %s: %w", ex.URL, res.PayloadDigest, err)
		}
	}
	return res, nil
}

// truncation returns the WARC-Truncated value for an Exchange.Truncation.
func truncation(why string) string {
	switch why {
	case "":
		return TruncatedLength
	case TruncatedLength, TruncatedTime, TruncatedDisconnect, TruncatedUnspecified:
		return why
	}
	return TruncatedUnspecified
}

// compress appends the record made of head and block to buf as one gzip
// member. The block is compressed from where it lies rather than copied
// next to its head first.
func (w *Writer) compress(buf *bytes.Buffer, head, block []byte) error {
	zw := w.gz.Get().(*gzip.Writer)
	defer w.gz.Put(zw)
	zw.Reset(buf)
	for _, part := range [][]byte{head, block, []byte(recordEnd)} {
		if _, err := zw.Write(part); err != nil {
			return fmt.Errorf("compress record: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("compress record: %w", err)
	}
	return nil
}

// append writes members (a response or revisit member first) to the
// current file, rotating first if needed, and indexes the first member.
func (w *Writer) append(members []byte, res *Result, url string, date time.Time, mime string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return fmt.Errorf("warc: write %s: %w", url, ErrClosed)
	}
	if w.f == nil { // an earlier rotation failed to open the next file
		if err := w.openFile(); err != nil {
			return fmt.Errorf("warc: write %s: %w", url, err)
		}
	}
	if w.records > 0 && (w.size+int64(len(members)) > w.opts.MaxSize || w.records >= w.opts.MaxRecords) {
		if err := w.closeFile(); err != nil {
			return fmt.Errorf("warc: write %s: %w", url, err)
		}
		if err := w.openFile(); err != nil {
			return fmt.Errorf("warc: write %s: %w", url, err)
		}
	}
	off := w.size
	// One write for the pair: a crash leaves whole records. If the write
	// fails part-way, cut the file back so it still ends on a record.
	if _, err := w.f.Write(members); err != nil {
		if terr := w.f.Truncate(off); terr == nil {
			_, _ = w.f.Seek(off, 0)
		}
		return fmt.Errorf("warc: write %s to %s: %w", url, w.name, err)
	}
	w.size += int64(len(members))
	w.records++
	res.File, res.Offset = w.name, off
	w.index = append(w.index, cdxjLine(url, date, mime, res))
	return nil
}

// cdxjEntry is the JSON part of a CDXJ line, in pywb's field names, with
// numbers as strings as pywb writes them.
type cdxjEntry struct {
	URL      string `json:"url"`
	Mime     string `json:"mime,omitempty"`
	Status   string `json:"status,omitempty"`
	Digest   string `json:"digest,omitempty"`
	Length   string `json:"length"`
	Offset   string `json:"offset"`
	Filename string `json:"filename"`
}

// cdxjLine formats one CDXJ index line. The digest is the payload digest
// without its "sha1:" label, as CDX indexes carry it.
func cdxjLine(url string, date time.Time, mime string, res *Result) string {
	e := cdxjEntry{
		URL:      url,
		Mime:     mime,
		Digest:   strings.TrimPrefix(res.PayloadDigest, "sha1:"),
		Length:   strconv.FormatInt(res.Length, 10),
		Offset:   strconv.FormatInt(res.Offset, 10),
		Filename: res.File,
	}
	if res.Status > 0 {
		e.Status = strconv.Itoa(res.Status)
	}
	var b strings.Builder
	b.WriteString(SURT(url))
	b.WriteByte(' ')
	b.WriteString(timestamp14(date))
	b.WriteByte(' ')
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(e) // strings only: cannot fail
	return strings.TrimSuffix(b.String(), "\n")
}

// openFile starts the next WARC file with its warcinfo record. w.mu held.
func (w *Writer) openFile() error {
	ts := timestamp14(w.opts.Now())
	for {
		name := fmt.Sprintf("%s-%s-%05d.warc.gz", w.opts.Prefix, ts, w.serial)
		w.serial++
		f, err := os.OpenFile(filepath.Join(w.opts.Dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue // an earlier run in the same second; take the next serial
		}
		if err != nil {
			return fmt.Errorf("warc: create file: %w", err)
		}
		// Held until the file is indexed and closed; a crash drops it, so
		// the next Open can tell a killed writer's file from a live one.
		if err := lockFile(f); err != nil {
			f.Close()
			return fmt.Errorf("warc: lock %s: %w", name, err)
		}
		w.f, w.name, w.size, w.records, w.index = f, name, 0, 0, nil
		w.files = append(w.files, name)
		break
	}
	info := []byte("software: " + w.opts.Software + "\r\n" +
		"format: WARC File Format 1.1\r\n" +
		"conformsTo: http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n")
	for _, f := range w.opts.Info {
		info = append(info, f.Name+": "+f.Value+"\r\n"...)
	}
	h := Header{{"WARC-Type", TypeWarcinfo}, {"WARC-Record-ID", newRecordID()},
		{"WARC-Date", warcDate(w.opts.Now())}, {"WARC-Filename", w.name},
		{"WARC-Block-Digest", Digest(info)}, {"Content-Type", "application/warc-fields"}}
	var buf bytes.Buffer
	if err := w.compress(&buf, appendRecordHead(nil, h, len(info)), info); err != nil {
		return fmt.Errorf("warc: %s: warcinfo: %w", w.name, err)
	}
	if _, err := w.f.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("warc: %s: write warcinfo: %w", w.name, err)
	}
	w.size = int64(buf.Len())
	return nil
}

// closeFile syncs the current file, writes its sorted CDXJ index and
// closes it, in that order: the file stays locked until its index is
// there. w.mu held.
func (w *Writer) closeFile() error {
	if w.f == nil {
		return nil
	}
	f, name := w.f, w.name
	w.f = nil
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("warc: sync %s: %w", name, err)
	}
	err := writeIndex(filepath.Join(w.opts.Dir, strings.TrimSuffix(name, ".warc.gz")+".cdxj"), w.index)
	w.index = nil
	if cerr := f.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("warc: close %s: %w", name, cerr)
	}
	return err
}

// writeIndex sorts CDXJ lines and writes them to path through a temporary file, synced
// before it takes path's name and the directory synced after, so a crash
// or a power cut leaves either no index or a whole one (recoverFiles
// redoes one a file system left empty or cut short all the same).
func writeIndex(path string, lines []string) error {
	sort.Strings(lines)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if err := writeSynced(path, []byte(b.String())); err != nil {
		return fmt.Errorf("warc: write index: %w", err)
	}
	return nil
}

// writeSynced writes data to the file at path whole or not at all: into
// path.tmp (not through a symbolic link left there, which would write over
// the file it points to), synced, renamed into place, and the directory
// synced, so that a power cut leaves the old file or the new one.
func writeSynced(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|noFollow, 0o644)
	if err == nil {
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		removeFile(tmp)
		return err
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return fmt.Errorf("sync its directory: %w", err)
	}
	return nil
}

// removeFile removes the file at path, a partial index that is of no
// use; a directory or nothing at path is left as it is.
func removeFile(path string) {
	if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() {
		_ = os.Remove(path)
	}
}

// Close finishes the current file (sync, close, CDXJ index). Later writes
// fail with ErrClosed; a second Close does nothing.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	return w.closeFile()
}

// Recovered returns the files Open found without an index (most often
// left by a writer that was killed) and indexed, each with the number of
// bytes of a partial last record pair it cut from the file's end first.
func (w *Writer) Recovered() []Recovery { return append([]Recovery(nil), w.recovered...) }

// Unrecovered returns, for each file Open found without an index and
// failed to recover, an error naming the file and the cause (errors.Is
// ErrUnrecovered). Each such file was left without an index and byte for
// byte as it was, unless its error says how many bytes of a partial last
// record pair were cut (the index failed after the cut); a later Open
// tries again.
func (w *Writer) Unrecovered() []error { return append([]error(nil), w.unrecovered...) }

// Files returns the base names of the WARC files this Writer created, in
// order, the current one last.
func (w *Writer) Files() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.files...)
}
