package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// DefaultMaxRecord is the largest record block a Reader accepts unless
// told otherwise.
const DefaultMaxRecord = 256 << 20

// maxLine bounds one header line, so a file without newlines cannot make
// the reader buffer it whole.
const maxLine = 64 << 10

// Record is one WARC record read back.
type Record struct {
	// Version is the record's version line, e.g. "WARC/1.1".
	Version string
	// Header holds the named fields in file order.
	Header Header
	// Block is the record's content block.
	Block []byte
	// Offset is where the record starts in the file: for a .warc.gz, the
	// start of the gzip member holding it.
	Offset int64
	// Length is the record's size in the file (its gzip member, for a
	// .warc.gz holding one record per member).
	Length int64
}

// Type returns the record's WARC-Type.
func (r *Record) Type() string { return r.Header.Get("WARC-Type") }

// Reader iterates the records of a WARC file, gzip-compressed (any number
// of records per member) or plain, detected from the first bytes.
type Reader struct {
	// MaxRecord bounds a record's block; a longer one is ErrTooLarge.
	// NewReader sets DefaultMaxRecord.
	MaxRecord int64

	cr      *countReader
	br      *bufio.Reader
	gzipped bool
	gz      *gzip.Reader
	member  *bufio.Reader // records of the current gzip member; nil between members
	memOff  int64
	// unended is the last record read whose block was whole but whose
	// CRLF CRLF was not there: recovery checks its digest.
	unended *Record
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// NewReader returns a Reader of r.
func NewReader(r io.Reader) (*Reader, error) {
	cr := &countReader{r: r}
	rd := &Reader{MaxRecord: DefaultMaxRecord, cr: cr, br: bufio.NewReaderSize(cr, maxLine)}
	head, err := rd.br.Peek(2)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("warc: read: %w", err)
	}
	rd.gzipped = len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b
	return rd, nil
}

// pos is the offset of the next unread byte of the underlying stream.
func (r *Reader) pos() int64 { return r.cr.n - int64(r.br.Buffered()) }

// Next returns the next record, or io.EOF after the last. A record whose
// block or payload digest does not match comes back together with an
// error wrapping ErrDigest, and iteration can go on; any other error ends
// it.
func (r *Reader) Next() (*Record, error) {
	if !r.gzipped {
		off := r.pos()
		rec, err := r.readRecord(r.br)
		if err != nil {
			return nil, err
		}
		rec.Offset, rec.Length = off, r.pos()-off
		return rec, rec.verify()
	}
	if r.member == nil {
		if _, err := r.br.Peek(1); errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		r.memOff = r.pos()
		var err error
		if r.gz == nil {
			r.gz, err = gzip.NewReader(r.br)
		} else {
			err = r.gz.Reset(r.br)
		}
		if err != nil {
			return nil, fmt.Errorf("warc: gzip member at offset %d: %w", r.memOff, err)
		}
		// One member at a time, so each record's member offset is known.
		r.gz.Multistream(false)
		r.member = bufio.NewReaderSize(r.gz, maxLine)
	}
	rec, err := r.readRecord(r.member)
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = fmt.Errorf("warc: gzip member at offset %d holds no record: %w", r.memOff, ErrFormat)
		}
		return nil, err
	}
	rec.Offset = r.memOff
	if _, perr := r.member.Peek(1); errors.Is(perr, io.EOF) {
		// The member ended with this record: the gzip trailer is read.
		rec.Length = r.pos() - r.memOff
		r.member = nil
	} else if perr != nil {
		return nil, fmt.Errorf("warc: gzip member at offset %d: %w", r.memOff, perr)
	}
	return rec, rec.verify()
}

// readRecord reads one record from b; io.EOF if b is at its end.
func (r *Reader) readRecord(b *bufio.Reader) (*Record, error) {
	line, err := readLine(b)
	for err == nil && line == "" {
		line, err = readLine(b) // tolerate extra blank lines between records
	}
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(line, "WARC/") {
		return nil, fmt.Errorf("%w: version line %q", ErrFormat, truncate(line))
	}
	rec := &Record{Version: line}
	for {
		line, err := readLine(b)
		if err != nil {
			return nil, fmt.Errorf("%w: header: %w", ErrFormat, noEOF(err))
		}
		if line == "" {
			break
		}
		if (line[0] == ' ' || line[0] == '\t') && len(rec.Header) > 0 {
			rec.Header[len(rec.Header)-1].Value += " " + strings.TrimSpace(line)
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%w: header line %q", ErrFormat, truncate(line))
		}
		rec.Header = append(rec.Header, Field{strings.TrimSpace(name), strings.TrimSpace(value)})
	}
	n, err := strconv.ParseInt(rec.Header.Get("Content-Length"), 10, 64)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("%w: Content-Length %q", ErrFormat, rec.Header.Get("Content-Length"))
	}
	if n > r.MaxRecord {
		return nil, fmt.Errorf("warc: record %s: %w: %d bytes, limit %d", rec.Header.Get("WARC-Record-ID"), ErrTooLarge, n, r.MaxRecord)
	}
	// Read rather than allocate n: a lying Content-Length costs only what
	// is really there.
	rec.Block, err = io.ReadAll(io.LimitReader(b, n))
	if err != nil {
		return nil, fmt.Errorf("warc: record %s: block: %w", rec.Header.Get("WARC-Record-ID"), err)
	}
	if int64(len(rec.Block)) != n {
		return nil, fmt.Errorf("warc: record %s: %w: block has %d of %d bytes: %w", rec.Header.Get("WARC-Record-ID"), ErrFormat, len(rec.Block), n, io.ErrUnexpectedEOF)
	}
	var end [4]byte
	if _, err := io.ReadFull(b, end[:]); err != nil {
		r.unended = rec
		// The read's own error, so a recovery tells data cut short
		// (io.ErrUnexpectedEOF) from a read that failed.
		return nil, fmt.Errorf("warc: record %s: %w: no CRLF CRLF after the block: %w", rec.Header.Get("WARC-Record-ID"), ErrFormat, noEOF(err))
	}
	if string(end[:]) != "\r\n\r\n" {
		return nil, fmt.Errorf("warc: record %s: %w: no CRLF CRLF after the block", rec.Header.Get("WARC-Record-ID"), ErrFormat)
	}
	return rec, nil
}

// verify checks the record's block digest and, for an HTTP response
// record, its payload digest; digests in algorithms it does not know are
// not checked.
func (rec *Record) verify() error {
	id := rec.Header.Get("WARC-Record-ID")
	if d := rec.Header.Get("WARC-Block-Digest"); d != "" {
		if ok, known := checkDigest(rec.Block, d); known && !ok {
			return fmt.Errorf("warc: record %s: %w: block digest %s", id, ErrDigest, d)
		}
	}
	ct := strings.ToLower(rec.Header.Get("Content-Type"))
	if d := rec.Header.Get("WARC-Payload-Digest"); d != "" && rec.Type() == TypeResponse &&
		strings.HasPrefix(ct, "application/http") && strings.Contains(ct, "msgtype=response") &&
		rec.Header.Get("WARC-Truncated") == "" {
		msg := parseHTTP(rec.Block)
		if ok, known := checkDigest(msg.payload, d); msg.ok && known && !ok {
			return fmt.Errorf("warc: record %s: %w: payload digest %s", id, ErrDigest, d)
		}
	}
	return nil
}

// readLine reads one line without its line ending, at most maxLine bytes.
func readLine(b *bufio.Reader) (string, error) {
	line, err := b.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		return "", fmt.Errorf("line longer than %d bytes: %w", maxLine, ErrFormat)
	}
	if err != nil {
		if len(line) > 0 && errors.Is(err, io.EOF) {
			return "", io.ErrUnexpectedEOF
		}
		return "", err
	}
	return string(bytes.TrimRight(line, "\r\n")), nil
}

func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

func truncate(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// IndexFile reads the WARC file at path and returns its CDXJ index lines,
// sorted, as the Writer writes them: to index files from elsewhere, or one
// whose writer did not close it (a crash; Open does that by itself for
// its own files, see recoverFiles). A digest mismatch is an error.
func IndexFile(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("warc: index: %w", err)
	}
	defer f.Close()
	lines, rest, _, err := indexRecords(f, filepath.Base(path))
	if err != nil {
		return nil, fmt.Errorf("warc: index %s: %w", path, err)
	}
	lines = append(lines, rest...)
	sort.Strings(lines)
	return lines, nil
}

// indexRecords reads the WARC stream r of the file named name and returns
// the CDXJ lines of its response and revisit records up to its last
// whole exchange, and the offset just past that exchange: a record pair
// the Writer wrote in one write (a response or revisit naming a
// WARC-Concurrent-To, then that request) is whole once both are read; a
// response whose request came first (other writers' order) is whole at
// once. rest holds the lines of the records read after it (a response
// whose partner never came, or had not come when the read stopped);
// whatever stops the read before the end is the error.
func indexRecords(r io.Reader, name string) (lines, rest []string, whole int64, err error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, nil, 0, err
	}
	seen := map[string]bool{} // record ids read so far
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return lines, rest, whole, nil
		}
		if err != nil {
			return lines, rest, whole, err
		}
		typ := rec.Type()
		if typ == TypeResponse || typ == TypeRevisit {
			date, err := time.Parse(time.RFC3339, rec.Header.Get("WARC-Date"))
			if err != nil {
				return lines, nil, whole, fmt.Errorf("record at %d: %w: %w %q", rec.Offset, ErrFormat, errDate, rec.Header.Get("WARC-Date"))
			}
			msg := parseHTTP(rec.Block)
			mime := msg.contentType
			if typ == TypeRevisit {
				mime = "warc/revisit"
			}
			res := &Result{Type: typ, File: name, Offset: rec.Offset, Length: rec.Length,
				PayloadDigest: rec.Header.Get("WARC-Payload-Digest"), Status: msg.status}
			rest = append(rest, cdxjLine(rec.Header.Get("WARC-Target-URI"), date, mime, res))
		}
		seen[rec.Header.Get("WARC-Record-ID")] = true
		partner := rec.Header.Get("WARC-Concurrent-To")
		open := (typ == TypeResponse || typ == TypeRevisit) && partner != "" && !seen[partner]
		if rec.Length > 0 && !open { // the record ended its gzip member and no partner is awaited
			lines = append(lines, rest...)
			rest = rest[:0]
			whole = rec.Offset + rec.Length
		}
	}
}
