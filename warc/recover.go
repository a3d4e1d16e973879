package warc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Recovery is a file Open found without a CDXJ index and indexed.
type Recovery struct {
	// Name is the file's base name.
	Name string
	// Cut is how many bytes recovery cut from the file's end before
	// indexing it: the part of a record pair its writer was killed while
	// writing, or a power cut zeroed, that holds no whole record (the
	// whole pair, or its request when its response is whole, which is
	// kept and indexed). 0 when nothing was cut.
	Cut int64
}

// recoverFiles finishes the WARC files of dir named with prefix that have
// no CDXJ index: most often files a Writer never closed, because its
// process was killed. Each gets its index. Only a file this package's
// Writer made (see madeHere) is ever cut, and only back to its last whole
// record, when all that follows its last whole exchange is one record
// pair a kill cut short or a power cut zeroed (see cutShort): then its
// read stops in gzip data that ends at the file's end, or in zeros that
// run to it. The pair's response, when whole, is kept and indexed, also
// when its request never came. A file that reads whole to its
// end is indexed as it is, whoever made it. A file another Writer holds
// (see lockFile) is left alone, and so is an empty one, which its writer
// is about to lock. Every other file is skipped, left byte for byte as it
// was without an index, and reported in failed by an error wrapping
// ErrUnrecovered and the cause, naming the file once: one that is no
// regular file (a symbolic link, a FIFO), one not readable as a WARC from
// its first byte, one whose records fail their digests, one that stops
// before its end in anything else than a cut-short pair (damage, or
// another tool's file), one whose read failed, or one that cannot be
// opened, cut or indexed. A later Open tries it again, so that one file
// cannot keep a Writer from writing new ones. Only when its index cannot
// be written after a cut is such a file changed, which its error says.
// Each cut is marked beside its file before it is made (see
// writeCutMark), so a recovery killed after a cut and before its report
// has the next one report it, even for a file indexed meanwhile.
func recoverFiles(dir, prefix string) (done []Recovery, failed []error, err error) {
	names, err := filepath.Glob(filepath.Join(dir, globEscape(prefix)+"-*.warc.gz"))
	if err != nil {
		return nil, nil, fmt.Errorf("warc: recover %s: %w", dir, err)
	}
	for _, path := range names {
		index := strings.TrimSuffix(path, ".warc.gz") + ".cdxj"
		mark := cutMarkPath(path)
		before, marked := readCutMark(mark, path)
		had, whole := indexState(index)
		if whole {
			// Indexed, or not ours to judge; a mark left is of a
			// recovery killed after the index, before its report.
			if marked {
				done = append(done, Recovery{Name: filepath.Base(path), Cut: markedCut(path, before)})
				doneCutMark(mark)
			}
			continue
		}
		cut, ok, err := recoverFile(path, index)
		if marked {
			// An earlier recovery's cut, and maybe one of this.
			cut = markedCut(path, before)
		}
		switch {
		case err != nil:
			state := "unchanged"
			if cut > 0 {
				state = fmt.Sprintf("cut by %d bytes, a partial last record pair, before its index failed", cut)
			}
			if had {
				state += "; its index is empty or cut short"
			}
			failed = append(failed, fmt.Errorf("%w: %s (%s): %w", ErrUnrecovered, path, state, err))
		case ok && had && cut == 0 && emptyFile(index):
			// An empty index redone empty: a file of no response, closed.
		case ok:
			done = append(done, Recovery{Name: filepath.Base(path), Cut: cut})
			doneCutMark(mark)
		}
	}
	return done, failed, nil
}

// indexState tells whether there is an index at path (had), and whether
// it is whole or not this package's to judge (something else than a
// regular file, or one it cannot read): whole is false for one that is
// missing, empty, or does not end its last line, as one a power cut
// caught before its blocks were written is. An empty index may also be
// the whole index of a file of no response, which recovery redoes the
// same.
func indexState(path string) (had, whole bool) {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return false, false
	case err != nil || !st.Mode().IsRegular():
		return true, true
	case st.Size() == 0:
		return true, false
	}
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return true, true
	}
	defer f.Close()
	var last [1]byte
	if _, err := f.ReadAt(last[:], st.Size()-1); err != nil {
		return true, true
	}
	return true, last[0] == '\n'
}

// emptyFile reports whether the file at path is there and empty.
func emptyFile(path string) bool {
	st, err := os.Lstat(path)
	return err == nil && st.Size() == 0
}

// recoverFile indexes the unindexed WARC file at path into index, cutting
// a partial last record pair first, unless another Writer holds it or it
// is empty. It reports how many bytes it cut and whether it wrote the
// index; its errors do not name path, which the caller names. The file is
// opened for reading, and again for writing only to be cut.
func recoverFile(path, index string) (cut int64, ok bool, err error) {
	st, err := os.Lstat(path)
	if err != nil {
		return 0, false, pathless(err, path)
	}
	if !st.Mode().IsRegular() {
		return 0, false, fmt.Errorf("not a regular file but %s: left alone", fileKind(st.Mode()))
	}
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return 0, false, pathless(err, path)
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return 0, false, pathless(err, path)
	}
	if !st.Mode().IsRegular() { // replaced since the Lstat
		return 0, false, fmt.Errorf("not a regular file but %s: left alone", fileKind(st.Mode()))
	}
	return recoverOpened(f, st, path, index)
}

// recoverOpened is recoverFile on f, the regular file at path, open for
// reading, described by st when it was opened: it locks f, then looks
// again at its size and index, which its writer may have changed until
// it let the lock go (writing on, or closing it with its index).
func recoverOpened(f *os.File, st os.FileInfo, path, index string) (cut int64, ok bool, err error) {
	var lf *os.File
	locked, err := tryLockFile(f)
	if errors.Is(err, syscall.EBADF) {
		// NFS emulates flock with a write lock, which takes a descriptor
		// open for writing: lock through one, held until recovery ends.
		// Such a lock goes when any descriptor of the file the process
		// holds is closed: the file is cut through this one.
		var oerr error
		if lf, oerr = openSame(path, os.O_RDWR, st); oerr != nil {
			return 0, false, fmt.Errorf("lock: %w; open for writing to lock it: %w", pathless(err, path), oerr)
		}
		defer lf.Close()
		locked, err = tryLockFile(lf)
	}
	if err != nil {
		return 0, false, fmt.Errorf("lock: %w", pathless(err, path))
	}
	if !locked {
		return 0, false, nil // being written
	}
	if st, err = f.Stat(); err != nil {
		return 0, false, pathless(err, path)
	}
	if _, whole := indexState(index); whole {
		return 0, false, nil // closed, with its index, since it was opened
	}
	if st.Size() == 0 {
		return 0, false, nil // created, not yet begun: its writer is about to lock it
	}
	return recoverOpen(f, lf, path, st.Size(), index)
}

// fileKind names the type of a file that is not regular.
func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m.IsDir():
		return "a directory"
	}
	return "a special file (" + m.Type().String() + ")"
}

// recoverTarget is the open, locked file recovery reads and syncs: an
// *os.File open for reading.
type recoverTarget interface {
	io.Reader
	io.ReaderAt
	Stat() (os.FileInfo, error)
	Sync() error
}

// recoverOpen is recoverFile on f, the file at path of size bytes, open
// and locked; lf, if not nil, is the descriptor open for writing it holds
// the lock through, to cut it through.
func recoverOpen(f recoverTarget, lf *os.File, path string, size int64, index string) (cut int64, ok bool, err error) {
	name := filepath.Base(path)
	lines, rest, whole, err := indexRecords(f, name)
	switch {
	case err == nil && whole == size:
	case err != nil && readFailed(err):
		return 0, false, fmt.Errorf("read stopped after byte %d: %w", whole, pathless(err, path))
	case whole == 0:
		// No pair, nor a warcinfo record: this package's files begin
		// with a whole warcinfo record.
		if err == nil {
			err = fmt.Errorf("%w: its records end in a response without its request", ErrFormat)
		}
		if none, nerr := noRecord(f, size); nerr != nil {
			return 0, false, fmt.Errorf("look at its bytes: %w", pathless(nerr, path))
		} else if none {
			return 0, false, fmt.Errorf("it holds no record, only zeros or the start of a warcinfo record (a writer killed right after it created the file): nothing to index, it can be deleted: %w", err)
		}
		return 0, false, fmt.Errorf("no whole record from its first byte: %w", err)
	case errors.Is(err, ErrDigest):
		return 0, false, fmt.Errorf("damaged: %w", err)
	case errors.Is(err, errDate):
		// A whole record, if of another writer's dates: never cut.
		return 0, false, fmt.Errorf("read stopped after byte %d of %d: %w", whole, size, err)
	default:
		mine, merr := madeHere(f, size, name)
		short, keep := false, whole
		if merr == nil && mine {
			keep, short, merr = cutShort(f, whole, size)
		}
		switch {
		case merr != nil:
			return 0, false, fmt.Errorf("look at the bytes after byte %d: %w", whole, pathless(merr, path))
		case short && keep > whole && len(rest) != 1:
			return 0, false, fmt.Errorf("read stopped after byte %d of %d: %d records before byte %d, want the response of the last pair alone: %w", whole, size, len(rest), keep, err)
		case short:
			if keep > whole {
				// The last pair's response, whole: kept, and indexed.
				lines = append(lines, rest...)
			}
			if keep < size {
				if err := writeCutMark(cutMarkPath(path), size, keep); err != nil {
					return 0, false, fmt.Errorf("cut the partial record pair at byte %d: %w", keep, err)
				}
				if err := cutFile(path, f, lf, keep); err != nil {
					return 0, false, fmt.Errorf("cut the partial record pair at byte %d: %w", keep, err)
				}
				cut = size - keep
			}
		case err == nil:
			// It reads whole to its end, in records that do not end in
			// a pair as this package's Writer writes them: index them
			// all, unchanged.
			lines = append(lines, rest...)
		case !mine:
			return 0, false, fmt.Errorf("read stopped after byte %d of %d, in a file whose warcinfo record does not name it (another tool's, or a copy): only a file that record names is cut: %w", whole, size, err)
		default:
			return 0, false, fmt.Errorf("read stopped after byte %d of %d in what is no record pair cut short at the file's end (damage, or whole records after the damage): %w", whole, size, err)
		}
	}
	if cut == 0 {
		if err := f.Sync(); err != nil {
			return 0, false, pathless(err, path)
		}
	}
	if err := writeIndex(index, lines); err != nil {
		return cut, false, err
	}
	return cut, true, nil
}

// cutFile cuts the file at path, open as f, to size bytes through lf, if
// not nil, or else a second descriptor open for writing, and syncs it.
// The file at path must still be f, not a link or another file put there
// since; its errors do not name path.
func cutFile(path string, f recoverTarget, lf *os.File, size int64) error {
	if lf != nil {
		if err := lf.Truncate(size); err != nil {
			return pathless(err, path)
		}
		return pathless(lf.Sync(), path)
	}
	was, err := f.Stat()
	if err != nil {
		return pathless(err, path)
	}
	w, err := openSame(path, os.O_WRONLY, was)
	if err != nil {
		return err
	}
	defer w.Close()
	if err := w.Truncate(size); err != nil {
		return pathless(err, path)
	}
	if err := w.Sync(); err != nil {
		return pathless(err, path)
	}
	return pathless(w.Close(), path)
}

// openSame opens the file at path with flag, not following a symbolic
// link, and returns it if it is still the file was describes; its errors
// do not name path.
func openSame(path string, flag int, was os.FileInfo) (*os.File, error) {
	f, err := os.OpenFile(path, flag|noFollow, 0)
	if err != nil {
		return nil, pathless(err, path)
	}
	st, err := f.Stat()
	if err == nil && !os.SameFile(st, was) {
		err = errors.New("the file was replaced while recovery read it")
	}
	if err != nil {
		f.Close()
		return nil, pathless(err, path)
	}
	return f, nil
}

// readFailed reports whether err, which stopped a read of a WARC file, is
// an error of the file's reads (a disk's, the system's) rather than of
// the bytes read.
func readFailed(err error) bool {
	var pathErr *os.PathError
	var sysErr *os.SyscallError
	var errno syscall.Errno
	return errors.As(err, &pathErr) || errors.As(err, &sysErr) || errors.As(err, &errno)
}

// madeHere reports whether the WARC file f of size bytes, named name, is
// one this package's Writer made: its first record is a warcinfo record
// whose WARC-Filename is name. Another tool's file, or a copy still being
// written under another name, is never cut. Only a failed read is an
// error.
func madeHere(f io.ReaderAt, size int64, name string) (bool, error) {
	rd, err := NewReader(io.NewSectionReader(f, 0, size))
	if err != nil {
		return false, err
	}
	rec, err := rd.Next()
	if err != nil && readFailed(err) {
		return false, err
	}
	return err == nil && rec.Type() == TypeWarcinfo && rec.Header.Get("WARC-Filename") == name, nil
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
