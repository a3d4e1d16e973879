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
// cut to keep, and syncs it and its directory. It is written beside and
// renamed into place, so that no other process reads a mark half written.
func writeCutMark(mark string, size, keep int64) error {
	if err := writeSynced(mark, fmt.Appendf(nil, "%d %d\n", size, keep)); err != nil {
		return fmt.Errorf("write cut mark: %w", err)
	}
	return nil
}

// readCutMark returns the size the file at path had before the cut the
// mark at mark records, and whether that cut was made to the file as it
// is: the mark reads as one, and the file is now the size the cut left. A
// mark that does not (the cut not made yet, by a recovery still running
// in another process; a mark left by an older file of the same name; a
// damaged one) is ignored and left: without the file's lock, removing it
// could lose the mark of a cut about to be made.
func readCutMark(mark, path string) (before int64, ok bool) {
	st, err := os.Lstat(mark)
	if err != nil || !st.Mode().IsRegular() {
		return 0, false
	}
	b, err := os.ReadFile(mark)
	if err != nil {
		return 0, false
	}
	var keep int64
	if n, err := fmt.Sscanf(string(b), "%d %d\n", &before, &keep); n != 2 || err != nil || keep >= before || keep < 0 {
		return 0, false
	}
	if fst, err := os.Lstat(path); err != nil || fst.Size() != keep {
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
