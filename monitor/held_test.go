package monitor_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/monitor"
	"github.com/seedcrawl/seedcrawl/storage"
)

// TestStatusOfHeldDB walks the path `seedcrawl stats` takes on a database
// a running crawl holds: the read-only open is refused, the holder record
// names the crawl's pid and status address, and FetchStatus reads the
// live status from it, for the same pid.
func TestStatusOfHeldDB(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crawl.db")
	db, err := storage.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	rec := monitor.NewRecorder()
	rec.ObserveFetch(200, 512, time.Millisecond)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	srv, err := monitor.Start(ctx, "127.0.0.1:0", monitor.Options{Recorder: rec,
		Source: monitor.SourceFunc(func() monitor.Status {
			return monitor.Status{Command: "crawl", DB: path, Frontier: 7}
		})})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Advertise(srv.Addr()); err != nil {
		t.Fatal(err)
	}

	_, err = storage.Open(path, &storage.Options{ReadOnly: true, LockTimeout: 20 * time.Millisecond})
	if !errors.Is(err, storage.ErrLocked) {
		t.Fatalf("read-only open of a held db: %v, want ErrLocked", err)
	}
	pid, addr, ok := storage.Holder(path)
	if !ok || addr != srv.Addr() {
		t.Fatalf("Holder = %d %q %v, want the server at %s", pid, addr, ok, srv.Addr())
	}
	fctx, fcancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer fcancel()
	st, err := monitor.FetchStatus(fctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	if st.PID != pid || st.DB != path || st.Frontier != 7 || st.Recorded.Bytes != 512 {
		t.Errorf("status: pid %d (holder %d) db %q frontier %d bytes %d", st.PID, pid, st.DB, st.Frontier, st.Recorded.Bytes)
	}

	// The crawl stops: server first, then the db. Nobody holds it now.
	cancel()
	<-srv.Done()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := storage.Holder(path); ok {
		t.Errorf("Holder still reports a holder after Close")
	}
}
