package warc

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"strings"
)

// cutShort reports whether the bytes of f from whole, the end of its last
// whole record pair, to size are what a Writer killed inside one write, or
// a power cut that zeroed the file's last blocks, leaves: at most one
// record pair, a prefix of it as written, then maybe zeros to the end;
// and if so, keep: where the file is to end. Read member by member, those
// bytes hold at most one whole gzip member (the pair's response or
// revisit record alone, naming the request it waits for, which is kept:
// keep is then its end), and then either nothing or a member holding no
// more than one record, maybe incomplete, whose read fails
//
//   - with gzip data that ends early (io.ErrUnexpectedEOF) at the file's
//     end, or
//   - in the run of zero bytes that ends the file: its header, or its
//     deflate data read into the zeros (gzip.ErrHeader, a
//     flate.CorruptInputError), or its 8-byte trailer lies in them
//     (gzip.ErrChecksum), or starts as it should and then lies in them
//     (see trailerZeroed),
//
// and no whole member holding a WARC record starts after keep's byte (see
// memberAfter). Anything else there (a bad checksum or a flipped byte
// with data after it, a second whole member, a member whose record is not
// a pair's first) is damage or another tool's layout, which is not cut:
// stored bytes that hold a whole record are never lost. A read of f that
// fails is the error.
func cutShort(f io.ReaderAt, whole, size int64) (keep int64, short bool, err error) {
	zeros, err := zerosFrom(f, whole, size)
	if err != nil {
		return 0, false, err
	}
	cr := &countReader{r: io.NewSectionReader(f, whole, size-whole)}
	br := bufio.NewReader(cr)
	pos := func() int64 { return whole + cr.n - int64(br.Buffered()) }
	keep = whole
	var zr *gzip.Reader
	for i := 0; ; i++ {
		if _, err := br.Peek(1); errors.Is(err, io.EOF) {
			// The pair's response alone, ended with its member.
			return keep, i == 1, nil
		} else if err != nil {
			return 0, false, err
		}
		if zr == nil {
			zr, err = gzip.NewReader(br)
		} else {
			err = zr.Reset(br)
		}
		var content []byte
		if err == nil {
			zr.Multistream(false)
			content, err = io.ReadAll(io.LimitReader(zr, DefaultMaxRecord+maxLine))
		}
		if err != nil {
			if readFailed(err) {
				return 0, false, err
			}
			// Without a run of zeros as long as a trailer at the end,
			// only data that stops short is what a kill left: a flipped
			// bit near a member's end can make gzip read its trailer
			// (whose size field ends in zeros) as data and run into the
			// file's end too, but then what it decompressed does not
			// stop short: it holds bytes that do not belong there.
			at := pos()
			cut := endsInCut(err, at, zeros, size)
			if !cut && errors.Is(err, gzip.ErrChecksum) {
				var rerr error
				if cut, rerr = trailerZeroed(f, content, at, zeros); rerr != nil {
					return 0, false, rerr
				}
			}
			if !cut || !partOfOne(content, size-zeros < 8) {
				return 0, false, nil
			}
			after, err := memberAfter(f, keep+1, size)
			return keep, !after, err
		}
		if i > 0 || !pairStart(content) {
			return 0, false, nil
		}
		keep = pos() // the pair's response, whole: kept
	}
}

// endsInCut reports whether err, which stopped the read of a gzip member
// with at bytes of the file read, is what a write cut short at the file's
// end of size bytes, or the zeros from zeros to it, leave.
func endsInCut(err error, at, zeros, size int64) bool {
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return at == size
	case errors.Is(err, gzip.ErrChecksum):
		return at-8 >= zeros // the whole trailer zeroed
	case errors.Is(err, gzip.ErrHeader), errors.As(err, &corrupt):
		// The header or the data read into the zeros, which run on at
		// least over the trailer: the few zeros a trailer's size field
		// ends in are no power cut's.
		return at > zeros && size-zeros >= 8
	}
	return false
}

// trailerZeroed reports whether the trailer of the gzip member that ends
// at at in f, whose data decompressed whole to content, is zeroed from
// zeros on, as a power cut leaves it, and what is before is content's
// CRC-32 and size as they should be. It must have lost at least two bytes
// that were not zero: one byte changed (a flipped bit that cleared the
// only set bits of a byte) is damage, which is not cut.
func trailerZeroed(f io.ReaderAt, content []byte, at, zeros int64) (bool, error) {
	if zeros <= at-8 || zeros >= at {
		return false, nil
	}
	var want [8]byte
	binary.LittleEndian.PutUint32(want[:4], crc32.ChecksumIEEE(content))
	binary.LittleEndian.PutUint32(want[4:], uint32(len(content)))
	kept := zeros - (at - 8)
	got := make([]byte, kept)
	if _, err := f.ReadAt(got, at-8); err != nil && !errors.Is(err, io.EOF) {
		return false, err
	}
	lost := 0
	for _, c := range want[kept:] {
		if c != 0 {
			lost++
		}
	}
	return bytes.Equal(got, want[:kept]) && lost >= 2, nil
}

// pairStart reports whether content, a whole gzip member's, holds exactly
// one record, sound, that starts a record pair as the Writer writes it: a
// response or revisit naming in WARC-Concurrent-To the request to come.
func pairStart(content []byte) bool {
	rd, err := NewReader(bytes.NewReader(content))
	if err != nil || rd.gzipped {
		return false
	}
	rec, err := rd.Next()
	if err != nil || (rec.Type() != TypeResponse && rec.Type() != TypeRevisit) || rec.Header.Get("WARC-Concurrent-To") == "" {
		return false
	}
	_, err = rd.Next()
	return errors.Is(err, io.EOF)
}

// partOfOne reports whether content, what a gzip member cut short
// decompressed to, holds at most one record, maybe incomplete, as the
// Writer's members do: not the records of many pairs in one member, which
// another tool's file may hold and a cut there would lose. With prefix,
// content must be a prefix of one record: an incomplete record's read
// stopped by the end of content (io.ErrUnexpectedEOF), not by bytes out
// of place (a whole block that fails its digest), and a whole one
// followed by nothing, not even blank lines.
func partOfOne(content []byte, prefix bool) bool {
	rd, err := NewReader(bytes.NewReader(content))
	if err != nil {
		return false
	}
	if _, err := rd.Next(); err != nil {
		if prefix {
			// A whole block must be the one written: bytes out of
			// place in it fail its digest.
			unended := rd.unended != nil && rd.unended.verify() != nil
			return (errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)) && !unended
		}
		return !errors.Is(err, ErrDigest) // incomplete: part of one record
	}
	end := rd.pos()
	if prefix && end != int64(len(content)) {
		return false
	}
	if _, err = rd.Next(); errors.Is(err, io.EOF) || prefix {
		return errors.Is(err, io.EOF)
	}
	// Zeros that deflate data read into decompress to bytes of no use:
	// after a whole record, they must be no second record's start.
	rest := bytes.TrimLeft(content[end:], "\r\n")
	return err != nil && len(rest) > 0 && !bytes.HasPrefix([]byte("WARC/"), rest[:min(len(rest), len("WARC/"))])
}

// zerosFrom returns where the run of zero bytes that ends f, between off
// and size, begins: size if its last byte is not zero.
func zerosFrom(f io.ReaderAt, off, size int64) (int64, error) {
	buf := make([]byte, 64<<10)
	end := size
	for end > off {
		n := min(int64(len(buf)), end-off)
		b := buf[:n]
		if _, err := f.ReadAt(b, end-n); err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		for i := len(b) - 1; i >= 0; i-- {
			if b[i] != 0 {
				return end - n + int64(i) + 1, nil
			}
		}
		end -= n
	}
	return off, nil
}

// memberAfter reports whether a whole gzip member holding a WARC record
// starts in f between off and size: then what stopped the read is damage
// with whole records after it, not a write cut short at the file's end (a
// kill inside a write, or a power cut that zeroed the last blocks). A
// read of f that fails is the error.
func memberAfter(f io.ReaderAt, off, size int64) (bool, error) {
	const chunk = 64 << 10
	magic := []byte{0x1f, 0x8b, 0x08}
	buf := make([]byte, chunk+len(magic)-1)
	for off < size {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		if err != nil && !errors.Is(err, io.EOF) {
			return false, err
		}
		if n == 0 {
			return false, nil
		}
		for i := 0; ; i++ {
			j := bytes.Index(buf[i:n], magic)
			if j < 0 {
				break
			}
			i += j
			whole, err := wholeMember(f, off+int64(i), size)
			if err != nil || whole {
				return whole, err
			}
		}
		off += int64(max(n-len(magic)+1, 1))
	}
	return false, nil
}

// wholeMember reports whether one gzip member starting at off in f
// decompresses to its end and holds a WARC record; a read of f that
// fails, rather than data that does not decode, is the error.
func wholeMember(f io.ReaderAt, off, size int64) (bool, error) {
	check := func(err error) (bool, error) {
		if err == nil || errors.Is(err, io.EOF) || !readFailed(err) {
			return false, nil
		}
		return false, err
	}
	zr, err := gzip.NewReader(io.NewSectionReader(f, off, size-off))
	if err != nil {
		return check(err)
	}
	zr.Multistream(false)
	head := make([]byte, len("WARC/1."))
	if _, err := io.ReadFull(zr, head); err != nil || string(head) != "WARC/1." {
		return check(err)
	}
	if _, err = io.Copy(io.Discard, zr); err != nil {
		return check(err)
	}
	return true, nil
}

// noRecord reports whether f, of size bytes, holds what a Writer killed
// right after it created the file leaves, and nothing else: zeros only,
// or a gzip member cut short, maybe then zeros, whose data is the start of
// a warcinfo record. A read of f that fails is the error.
func noRecord(f io.ReaderAt, size int64) (bool, error) {
	zeros, err := zerosFrom(f, 0, size)
	if err != nil || zeros == 0 {
		return zeros == 0, err
	}
	cr := &countReader{r: io.NewSectionReader(f, 0, size)}
	br := bufio.NewReader(cr)
	zr, err := gzip.NewReader(br)
	var content []byte
	if err == nil {
		zr.Multistream(false)
		content, err = io.ReadAll(io.LimitReader(zr, maxLine))
	}
	if err == nil || readFailed(err) {
		return false, err
	}
	if !endsInCut(err, cr.n-int64(br.Buffered()), zeros, size) {
		return false, nil
	}
	const info = "WARC/1.1\r\nWARC-Type: warcinfo\r\n"
	if !strings.HasPrefix(string(content), info) && !strings.HasPrefix(info, string(content)) {
		return false, nil
	}
	after, err := memberAfter(f, 1, size)
	return !after, err
}
