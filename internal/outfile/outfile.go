package outfile

import (
	"bufio"
	"compress/gzip"
	"io"
	"os"
)

// Write creates (or truncates) path and writes it with body through a
// buffer. If body, the flush or the close fails, path is removed and the
// first error is returned as it is: the caller says what it was writing.
func Write(path string, body func(*bufio.Writer) error) error {
	return write(path, false, body)
}

// WriteGzip is Write through a gzip stream at gzip.BestCompression.
func WriteGzip(path string, body func(*bufio.Writer) error) error {
	return write(path, true, body)
}

func write(path string, gz bool, body func(*bufio.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	var w io.Writer = f
	var zw *gzip.Writer
	if gz {
		zw, _ = gzip.NewWriterLevel(f, gzip.BestCompression) // a valid level: no error
		w = zw
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	err = body(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil && zw != nil {
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return err
	}
	return nil
}
