//go:build unix

package warc

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// noFollow are the open flags recovery adds on each file it opens: a
// symbolic link put where a WARC file's name matches fails to open rather
// than lead recovery to its target, and a FIFO opens without waiting for
// a writer (recovery then finds it is no regular file and leaves it).
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// syncDir syncs the directory at path, so that the names a rename or a
// create put there survive a power cut. A file system that cannot sync a
// directory (some FUSE and network mounts answer EINVAL) is no error:
// there is nothing more to do.
func syncDir(path string) error {
	d, err := os.Open(path)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !unsupported(err) {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return d.Close()
}
