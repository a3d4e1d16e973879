//go:build !unix

package warc

import "os"

// lockFile does nothing where advisory file locks are not available.
func lockFile(*os.File) error { return nil }

// tryLockFile reports false where advisory file locks are not available:
// a file without an index may be another Writer's, so recovery leaves it.
func tryLockFile(*os.File) (bool, error) { return false, nil }
