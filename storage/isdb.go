package storage

import (
	"encoding/binary"
	"io"
	"os"
)

// boltMagic is the number at offset 16 of a bbolt file, in the meta page
// that opens it (little-endian on the machines seedcrawl runs on).
const boltMagic = 0xED0CDAED

// IsDatabase reports whether the file at path starts as a bbolt database
// does (its first meta page's magic number), without opening it as one:
// for a command that must not write over a db named by mistake. A file
// that is missing or cannot be read is not one.
func IsDatabase(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [20]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return false
	}
	return binary.LittleEndian.Uint32(head[16:]) == boltMagic
}
