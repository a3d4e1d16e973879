package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// recoverFiles finishes the WARC files of dir named with prefix that have
// no CDXJ index: files a Writer never closed, because its process was
// killed. Each gets its index. A file that ends in a response without
// the request the Writer writes after it, or whose read fails with no
// whole member after the failure (the process died inside a write, or a
// power cut zeroed its last blocks), is first cut back to its last whole
// exchange, so the file reads to its end; the exchange cut was not
// committed by the crawl either, which fetches it again. A file another
// Writer holds (see lockFile) is left alone, as is one whose records fail
// their digests or whose damaged member has whole records after it: that
// is damage, not a cut-short write, and not this Writer's to repair. It
// returns the base names of the files it finished and, for each file
// whose recovery failed (it cannot be opened for writing, cut or
// indexed), an error naming it: such a file is skipped, left without an
// index, so that one file a Writer cannot finish does not keep it from
// writing new ones. A failed recovery changes no byte of the file, except
// that a partial last exchange may be cut already when its index cannot
// be written.
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
		ok, err := recoverFile(path, index)
		switch {
		case err != nil:
			failed = append(failed, fmt.Errorf("%w: %s: %w", ErrUnrecovered, path, err))
		case ok:
			done = append(done, filepath.Base(path))
		}
	}
	return done, failed, nil
}

// recoverFile indexes the unindexed WARC file at path into index, cutting
// a partial last exchange first, unless another Writer holds it. It
// reports whether it wrote the index.
func recoverFile(path, index string) (bool, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false, fmt.Errorf("warc: recover %s: %w", path, err)
	}
	defer f.Close()
	locked, err := tryLockFile(f)
	if err != nil {
		return false, fmt.Errorf("warc: recover %s: lock: %w", path, err)
	}
	if !locked {
		return false, nil // being written
	}
	st, err := f.Stat()
	if err != nil {
		return false, fmt.Errorf("warc: recover %s: %w", path, err)
	}
	if st.Size() == 0 {
		return false, nil // created, not yet begun: its writer is about to lock it
	}
	lines, rest, whole, err := indexRecords(f, filepath.Base(path))
	switch {
	case err == nil && whole == st.Size():
	case errors.Is(err, ErrDigest):
		return false, nil // whole members, bytes that changed: damage
	case err == nil && len(rest) > 0 || !memberAfter(f, whole+1, st.Size()):
		if terr := f.Truncate(whole); terr != nil {
			return false, fmt.Errorf("warc: recover %s: cut the partial record at %d: %w", path, whole, terr)
		}
	default:
		return false, nil // damaged, not cut short
	}
	if err := f.Sync(); err != nil {
		return false, fmt.Errorf("warc: recover %s: %w", path, err)
	}
	if err := writeIndex(index, lines); err != nil {
		return false, err
	}
	return true, nil
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
// kill inside a write, or a power cut that zeroed the last blocks).
func memberAfter(f *os.File, off, size int64) bool {
	const chunk = 64 << 10
	magic := []byte{0x1f, 0x8b, 0x08}
	buf := make([]byte, chunk+len(magic)-1)
	for off < size {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		if n == 0 && err != nil {
			return false
		}
		for i := 0; ; i++ {
			j := bytes.Index(buf[i:n], magic)
			if j < 0 {
				break
			}
			i += j
			if wholeMember(f, off+int64(i), size) {
				return true
			}
		}
		off += int64(max(n-len(magic)+1, 1))
	}
	return false
}

// wholeMember reports whether one gzip member starting at off in f
// decompresses to its end and holds a WARC record.
func wholeMember(f *os.File, off, size int64) bool {
	zr, err := gzip.NewReader(io.NewSectionReader(f, off, size-off))
	if err != nil {
		return false
	}
	zr.Multistream(false)
	head := make([]byte, len("WARC/1."))
	if _, err := io.ReadFull(zr, head); err != nil || string(head) != "WARC/1." {
		return false
	}
	_, err = io.Copy(io.Discard, zr)
	return err == nil
}
