//go:build !unix

package warc

// noFollow is 0 where open has no O_NOFOLLOW: recovery's Lstat and its
// check of the opened file alone keep it from links and special files.
// (Without advisory locks recovery leaves every file anyway.)
const noFollow = 0

// syncDir does nothing where a directory cannot be opened to be synced
// (Windows): the index's synced content and its rename are all there is.
func syncDir(string) error { return nil }
