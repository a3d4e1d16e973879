package warc_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/warc"
)

// TestRecoverLeavesDamagedFile: a file without index whose 2nd exchange has
// one damaged byte (not a cut-short write) must not be cut there: the
// exchanges after the damage are whole and must be kept.
func TestRecoverLeavesDamagedFile(t *testing.T) {
	srv := pageServer(t)
	dir := t.TempDir()
	w := warc.OpenWriter(t, warc.Options{Dir: dir})
	var results []warc.Result
	for i := 0; i < 5; i++ {
		res, err := w.WriteExchange(context.Background(), fetchExchange(t, srv.URL+"/p"))
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, results[0].File)
	os.Remove(strings.TrimSuffix(path, ".warc.gz") + ".cdxj") // as if killed before its index
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := results[1]
	b[r.Offset+r.Length/2] ^= 0xff // one flipped byte inside the 2nd response's gzip member
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	before := int64(len(b))

	w2 := warc.OpenWriter(t, warc.Options{Dir: dir})
	if got := w2.Recovered(); len(got) != 0 {
		t.Errorf("recovered %v; a damaged file is not this writer's to index", got)
	}
	if after := size(t, path); after != before {
		t.Errorf("damaged file cut from %d to %d bytes: exchanges 3-5 (whole) lost", before, after)
	}
}
