//go:build unix

package warc

import "syscall"

// noFollow are the open flags recovery adds on each file it opens: a
// symbolic link put where a WARC file's name matches fails to open rather
// than lead recovery to its target, and a FIFO opens without waiting for
// a writer (recovery then finds it is no regular file and leaves it).
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
