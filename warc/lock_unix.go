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
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// tryLockFile takes the lock lockFile takes if no one holds it, and
// reports whether it did.
func tryLockFile(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
