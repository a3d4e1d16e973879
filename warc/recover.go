package warc

import (
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
// the request the Writer writes after it, whose last gzip member was cut
// short (the process died inside a write), or that ends in zero bytes (a
// power cut), is first cut back to its last whole exchange, so the file
// reads to its end; the exchange cut was not committed by the crawl
// either, which fetches it again. A file another Writer holds
// (see lockFile) is left alone, as is one that fails to read before its
// end (a digest that does not match, a damaged member with whole records
// after it): that is damage, not a cut-short write, and not this Writer's
// to repair. It returns the base names of the files it finished.
func recoverFiles(dir, prefix string) ([]string, error) {
	names, err := filepath.Glob(filepath.Join(dir, globEscape(prefix)+"-*.warc.gz"))
	if err != nil {
		return nil, fmt.Errorf("warc: recover %s: %w", dir, err)
	}
	var done []string
	for _, path := range names {
		index := strings.TrimSuffix(path, ".warc.gz") + ".cdxj"
		if _, err := os.Stat(index); !errors.Is(err, os.ErrNotExist) {
			continue // indexed, or not ours to judge
		}
		ok, err := recoverFile(path, index)
		if err != nil {
			return done, err
		}
		if ok {
			done = append(done, filepath.Base(path))
		}
	}
	return done, nil
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
	case err == nil && len(rest) > 0 || errors.Is(err, io.ErrUnexpectedEOF) || zeroTail(f, whole, st.Size()):
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

// zeroTail reports whether the bytes of f from off to size are all zero,
// as a file system may leave the end of a file whose last writes a power
// cut lost.
func zeroTail(f *os.File, off, size int64) bool {
	buf := make([]byte, 64<<10)
	for off < size {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		for _, b := range buf[:n] {
			if b != 0 {
				return false
			}
		}
		if err != nil && n == 0 {
			return false
		}
		off += int64(n)
	}
	return true
}
