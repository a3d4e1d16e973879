//go:build unix

package warc

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, waiting for it, so that
// recovery in another Writer leaves a file being written alone. The lock
// goes with the file's descriptor: closed, or the process killed, it is
// released.
// On a file system without flock (some FUSE and network mounts) the file
// is written unlocked, as before there were locks.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if unsupported(err) {
			return nil
		}
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// tryLockFile takes the lock lockFile takes if no one holds it, and
// reports whether it did. Without flock on the file system nobody can
// tell whether a file is being written: false, so recovery leaves it.
func tryLockFile(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) || unsupported(err) {
		return false, nil
	}
	return err == nil, err
}

// unsupported reports an error of a file system that has no flock.
func unsupported(err error) bool {
	return errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOTSUP)
}
