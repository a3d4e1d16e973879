package warc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A cut mark, NAME.cut beside NAME.warc.gz, says that recovery is cutting
// that file: written and synced before the cut, removed once the file is
// indexed and its cut reported. A recovery killed in between (after the
// cut, before the index) leaves it, and the next one reports the cut from
// it rather than a file that now reads whole to its end. It holds the
// file's size before the cut and the size it is cut to, in decimal,
// separated by a space, on one line.

// cutMarkPath returns the path of the cut mark of the WARC file at path.
func cutMarkPath(path string) string { return strings.TrimSuffix(path, ".warc.gz") + ".cut" }

// writeCutMark writes the cut mark at mark for a file of size bytes to be
// cut to keep, and syncs it and its directory.
func writeCutMark(mark string, size, keep int64) error {
	f, err := os.OpenFile(mark, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|noFollow, 0o644)
	if err != nil {
		return fmt.Errorf("write cut mark: %w", err)
	}
	_, err = fmt.Fprintf(f, "%d %d\n", size, keep)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncDir(filepath.Dir(mark))
	}
	if err != nil {
		removeFile(mark)
		return fmt.Errorf("write cut mark: %w", err)
	}
	return nil
}

// readCutMark returns the size the file had before the cut the mark at
// mark records, and whether there is a mark that reads as one; one that
// does not (its write cut short: no cut was made) is removed.
func readCutMark(mark string) (before int64, ok bool) {
	st, err := os.Lstat(mark)
	if err != nil || !st.Mode().IsRegular() {
		return 0, false
	}
	b, err := os.ReadFile(mark)
	if err != nil {
		return 0, false
	}
	var keep int64
	if n, err := fmt.Sscanf(string(b), "%d %d\n", &before, &keep); n != 2 || err != nil || keep > before || keep < 0 {
		removeFile(mark)
		return 0, false
	}
	return before, true
}

// markedCut returns how many bytes the file at path, cut by a recovery
// that marked it had before bytes, lost: 0 if it is not smaller.
func markedCut(path string, before int64) int64 {
	st, err := os.Lstat(path)
	if err != nil || st.Size() >= before {
		return 0
	}
	return before - st.Size()
}

// doneCutMark removes the cut mark at mark once its cut is reported.
func doneCutMark(mark string) {
	if st, err := os.Lstat(mark); err == nil && st.Mode().IsRegular() {
		if err := os.Remove(mark); err == nil || errors.Is(err, os.ErrNotExist) {
			_ = syncDir(filepath.Dir(mark))
		}
	}
}
