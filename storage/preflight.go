package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

// bbolt's on-disk meta page (go.etcd.io/bbolt internal/common/meta.go,
// format version 2): after the 16-byte page header come magic, version,
// page size, flags (u32 each), the root bucket (root pgid, sequence), the
// freelist pgid, the high-water pgid, the txid and an FNV-64a checksum of
// the preceding 56 bytes, all in the machine's byte order (little endian
// on every platform seedcrawl runs on).
const (
	boltMagic       = 0xED0CDAED
	boltVersion     = 2
	boltPageHeader  = 16
	boltMetaSize    = 64
	boltMetaSummed  = 56
	boltMinPageSize = 1024

	boltFreelistFlag = 0x10
)

type boltMeta struct {
	pageSize uint32
	freelist uint64 // page id of the freelist; ^0 when not synced
	pgid     uint64 // high-water mark: pages below it are in use
	txid     uint64
}

// parseMeta decodes and validates a meta page body; ok is false when the
// bytes are not a valid meta page.
func parseMeta(b []byte) (m boltMeta, ok bool) {
	if len(b) < boltMetaSize {
		return m, false
	}
	le := binary.LittleEndian
	if le.Uint32(b[0:]) != boltMagic || le.Uint32(b[4:]) != boltVersion {
		return m, false
	}
	h := fnv.New64a()
	h.Write(b[:boltMetaSummed])
	if h.Sum64() != le.Uint64(b[boltMetaSummed:]) {
		return m, false
	}
	m.pageSize = le.Uint32(b[8:])
	m.freelist = le.Uint64(b[32:])
	m.pgid = le.Uint64(b[40:])
	m.txid = le.Uint64(b[48:])
	if m.pageSize < boltMinPageSize || m.pageSize&(m.pageSize-1) != 0 {
		return m, false
	}
	return m, true
}

// preflight checks an existing file's meta pages before bbolt maps it:
// bbolt trusts them and faults (SIGBUS, not a recoverable panic) on a file
// shorter than the high-water mark they record. A missing or empty file is
// fine (bbolt creates it).
func preflight(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("storage: open %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("storage: stat %s: %w", path, err)
	}
	size := fi.Size()
	if size == 0 {
		return nil
	}
	if fi.IsDir() {
		return fmt.Errorf("storage: open %s: is a directory", path)
	}
	var metas []boltMeta
	buf := make([]byte, boltPageHeader+boltMetaSize)
	if _, err := f.ReadAt(buf, 0); err == nil {
		if m, ok := parseMeta(buf[boltPageHeader:]); ok {
			metas = append(metas, m)
		}
	} else if !errors.Is(err, io.EOF) {
		return fmt.Errorf("storage: read %s: %w", path, err)
	}
	// The second meta page sits one page in; its size is unknown when the
	// first is damaged, so try every size bbolt supports (as bbolt does).
	for ps := int64(boltMinPageSize); ps <= 1<<24 && ps+int64(len(buf)) <= size; ps <<= 1 {
		if len(metas) == 1 && int64(metas[0].pageSize) != ps {
			continue
		}
		if _, err := f.ReadAt(buf, ps); err != nil {
			return fmt.Errorf("storage: read %s: %w", path, err)
		}
		if m, ok := parseMeta(buf[boltPageHeader:]); ok && int64(m.pageSize) == ps {
			metas = append(metas, m)
			break
		}
	}
	if len(metas) == 0 {
		return fmt.Errorf("%w: %s: not a bbolt database (no valid meta page in %d bytes)", ErrCorrupt, path, size)
	}
	best := metas[0]
	for _, m := range metas[1:] {
		if m.txid > best.txid {
			best = m
		}
	}
	if best.pgid < 2 || best.pgid > uint64(size) {
		return fmt.Errorf("%w: %s: meta page claims %d pages", ErrCorrupt, path, best.pgid)
	}
	if need := int64(best.pgid) * int64(best.pageSize); size < need {
		return fmt.Errorf("%w: %s: truncated: %d bytes, its meta page says %d", ErrCorrupt, path, size, need)
	}
	if err := checkFreelist(f, best); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrCorrupt, path, err)
	}
	return nil
}

// checkFreelist validates the freelist page bbolt.Open loads: a damaged one
// makes bbolt panic (or read past its map) while it holds the file lock.
func checkFreelist(f *os.File, m boltMeta) error {
	const noFreelist = ^uint64(0)
	if m.freelist == noFreelist {
		return nil
	}
	if m.freelist < 2 || m.freelist >= m.pgid {
		return fmt.Errorf("freelist page %d outside 2..%d", m.freelist, m.pgid-1)
	}
	ps := int64(m.pageSize)
	var hdr [boltPageHeader + 8]byte
	if _, err := f.ReadAt(hdr[:], int64(m.freelist)*ps); err != nil {
		return fmt.Errorf("read freelist page %d: %w", m.freelist, err)
	}
	le := binary.LittleEndian
	id, flags := le.Uint64(hdr[0:]), le.Uint16(hdr[8:])
	count, overflow := uint64(le.Uint16(hdr[10:])), uint64(le.Uint32(hdr[12:]))
	if id != m.freelist || flags != boltFreelistFlag {
		return fmt.Errorf("freelist page %d: header says page %d, flags %#x", m.freelist, id, flags)
	}
	if m.freelist+overflow >= m.pgid {
		return fmt.Errorf("freelist page %d: %d overflow pages past the end", m.freelist, overflow)
	}
	skip := uint64(0)
	if count == 0xFFFF { // the real count is the first element
		count, skip = le.Uint64(hdr[boltPageHeader:]), 1
	}
	avail := (uint64(ps)*(overflow+1) - boltPageHeader) / 8
	if count > avail || skip+count > avail {
		return fmt.Errorf("freelist page %d: %d ids do not fit %d pages", m.freelist, count, overflow+1)
	}
	buf := make([]byte, (skip+count)*8)
	if _, err := f.ReadAt(buf, int64(m.freelist)*ps+boltPageHeader); err != nil {
		return fmt.Errorf("read freelist page %d: %w", m.freelist, err)
	}
	for i := skip; i < skip+count; i++ {
		if p := le.Uint64(buf[i*8:]); p < 2 || p >= m.pgid {
			return fmt.Errorf("freelist page %d: free page %d outside 2..%d", m.freelist, p, m.pgid-1)
		}
	}
	return nil
}

// statFile returns the size of the file at path.
func statFile(path string) (int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
