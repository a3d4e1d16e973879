package warc

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// recoverFiles finishes the WARC files of dir named with prefix that have
// no CDXJ index: files a Writer never closed, because its process was
// killed. Each gets its index. A file that ends in a response without
// the request the Writer writes after it, or whose read stops in gzip
// data cut short or zeroed (the process died inside a write, or a power
// cut zeroed its last blocks) with no whole member after that point, is
// first cut back to its last whole exchange, so the file reads to its
// end; the exchange cut was not committed by the crawl either, which
// fetches it again. Only a file with at least one whole record is cut,
// and never for an I/O error. A file another Writer holds (see lockFile)
// is left alone. It returns the base names of the files it finished
// and, for each other file it could not index, an error wrapping
// ErrUnrecovered and the cause, naming the file once: one not readable
// as a WARC from its first byte, one whose records fail their digests or
// whose damaged member has whole records after it (damage, not a
// cut-short write, and not this Writer's to repair), one whose read
// failed, or one that cannot be opened for writing, cut or indexed. Such
// a file is skipped, left without an index, so that one file a Writer
// cannot finish does not keep it from writing new ones. It is left byte
// for byte as it was, unless a partial last exchange was cut before its
// index failed, which the error then says.
func recoverFiles(dir, prefix string) (done []string, failed []error, err error) {
	names, err := filepath.Glob(filepath.Join(dir, globEscape(prefix)+"-*.warc.gz"))
	if err != nil {
		return nil, nil, fmt.Errorf("warc: recover %s: %w", dir, err)
	}
	for _, path := range names {
		index := strings.TrimSuffix(path, ".warc.gz") + ".cdxj"
		if _, err := os.Stat(index); !errors.Is(err, os.ErrNotExist) {
			continue // indexed, or not ours to judge
		}
		ok, cut, err := recoverFile(path, index)
		switch {
		case err != nil:
			state := "unchanged"
			if cut {
				state = "a partial last exchange may have been cut"
			}
			failed = append(failed, fmt.Errorf("%w: %s (%s): %w", ErrUnrecovered, path, state, err))
		case ok:
			done = append(done, filepath.Base(path))
		}
	}
	return done, failed, nil
}

// recoverFile indexes the unindexed WARC file at path into index, cutting
// a partial last exchange first, unless another Writer holds it. It
// reports whether it wrote the index and whether it cut the file; its
// errors do not name path, which the caller names.
func recoverFile(path, index string) (ok, cut bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false, false, pathless(err, path)
	}
	defer f.Close()
	locked, err := tryLockFile(f)
	if err != nil {
		return false, false, fmt.Errorf("lock: %w", pathless(err, path))
	}
	if !locked {
		return false, false, nil // being written
	}
	st, err := f.Stat()
	if err != nil {
		return false, false, pathless(err, path)
	}
	if st.Size() == 0 {
		return false, false, nil // created, not yet begun: its writer is about to lock it
	}
	return recoverOpen(f, path, st.Size(), index)
}

// recoverTarget is the open, locked file recovery reads, cuts and syncs:
// an *os.File.
type recoverTarget interface {
	io.Reader
	io.ReaderAt
	Truncate(size int64) error
	Sync() error
}

// recoverOpen is recoverFile on f, the file at path of size bytes, open
// and locked.
func recoverOpen(f recoverTarget, path string, size int64, index string) (ok, cut bool, err error) {
	lines, rest, whole, err := indexRecords(f, filepath.Base(path))
	switch {
	case err == nil && whole == size:
	case err != nil && !errors.Is(err, ErrDigest) && !undecodable(err):
		return false, false, fmt.Errorf("read stopped after byte %d: %w", whole, pathless(err, path))
	case whole == 0:
		// Nothing this package wrote: its files begin with a whole
		// warcinfo record.
		if err == nil {
			err = fmt.Errorf("%w: its records end in a response without its request", ErrFormat)
		}
		return false, false, fmt.Errorf("no whole record from its first byte: %w", err)
	case errors.Is(err, ErrDigest):
		return false, false, fmt.Errorf("damaged: %w", err)
	case err == nil && len(rest) > 0:
		// Whole records up to a response whose request never came: a
		// write cut between the two.
	case err == nil:
		return false, false, fmt.Errorf("%w: records end at byte %d of %d", ErrFormat, whole, size)
	default:
		after, aerr := memberAfter(f, whole+1, size)
		if aerr != nil {
			return false, false, fmt.Errorf("look for whole records after byte %d: %w", whole, pathless(aerr, path))
		}
		if after {
			return false, false, fmt.Errorf("damaged after byte %d, with whole records after the damage: %w", whole, err)
		}
	}
	if whole < size {
		if err := f.Truncate(whole); err != nil {
			return false, false, fmt.Errorf("cut the partial exchange at byte %d: %w", whole, pathless(err, path))
		}
		cut = true
	}
	if err := f.Sync(); err != nil {
		return false, cut, pathless(err, path)
	}
	if err := writeIndex(index, lines); err != nil {
		return false, cut, err
	}
	return true, cut, nil
}

// undecodable reports whether err, which stopped the read of a .warc.gz,
// is data that does not decode, as a write cut short or a tail zeroed
// leaves: gzip data that ends early, a bad member header or checksum,
// deflate data that does not match, or decompressed bytes that are not a
// WARC record (zeros inside deflate data decode to garbage before the
// error). An error of the file's reads, wrapped in any of these, is not.
func undecodable(err error) bool {
	var pathErr *os.PathError
	var sysErr *os.SyscallError
	var errno syscall.Errno
	if errors.As(err, &pathErr) || errors.As(err, &sysErr) || errors.As(err, &errno) {
		return false
	}
	var corrupt flate.CorruptInputError
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) ||
		errors.As(err, &corrupt) || errors.Is(err, ErrFormat)
}

// pathless returns err without the file path of an *os.PathError about
// path, which the message around it names already.
func pathless(err error, path string) error {
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// globEscape quotes the characters filepath.Match treats specially.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// memberAfter reports whether a whole gzip member holding a WARC record
// starts in f between off and size: then what stopped the read is damage
// with whole records after it, not a write cut short at the file's end (a
// kill inside a write, or a power cut that zeroed the last blocks). A
// read of f that fails is the error.
func memberAfter(f io.ReaderAt, off, size int64) (bool, error) {
	const chunk = 64 << 10
	magic := []byte{0x1f, 0x8b, 0x08}
	buf := make([]byte, chunk+len(magic)-1)
	for off < size {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		if err != nil && !errors.Is(err, io.EOF) {
			return false, err
		}
		if n == 0 {
			return false, nil
		}
		for i := 0; ; i++ {
			j := bytes.Index(buf[i:n], magic)
			if j < 0 {
				break
			}
			i += j
			whole, err := wholeMember(f, off+int64(i), size)
			if err != nil || whole {
				return whole, err
			}
		}
		off += int64(max(n-len(magic)+1, 1))
	}
	return false, nil
}

// wholeMember reports whether one gzip member starting at off in f
// decompresses to its end and holds a WARC record; a read of f that
// fails, rather than data that does not decode, is the error.
func wholeMember(f io.ReaderAt, off, size int64) (bool, error) {
	check := func(err error) (bool, error) {
		if err == nil || errors.Is(err, io.EOF) || undecodable(err) {
			return false, nil
		}
		return false, err
	}
	zr, err := gzip.NewReader(io.NewSectionReader(f, off, size-off))
	if err != nil {
		return check(err)
	}
	zr.Multistream(false)
	head := make([]byte, len("WARC/1."))
	if _, err := io.ReadFull(zr, head); err != nil || string(head) != "WARC/1." {
		return check(err)
	}
	if _, err = io.Copy(io.Discard, zr); err != nil {
		return check(err)
	}
	return true, nil
}
