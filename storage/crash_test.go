package storage_test

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// The crash writer commits batch after batch: batch k fetches page k, interns
// crashFan new URLs linked from it and queues them, bumps a counter and
// records k as state "last". Every page also links to the seed and to the
// first crashNav URLs of batch 0, like a site's navigation: those are
// interned again on every page, and answered by the recent URL cache once
// committed. It resumes after the last committed batch and prints
// "committed k" after each commit.
const (
	crashFan = 50
	crashNav = 5
)

func crashURL(k uint64, j int) string { return fmt.Sprintf("http://c%d.test/%d/%d", j%5, k, j) }

// crashNavURLs are the navigation links of every page, in link order: ids
// 1..crashNav, then the seed (id 0).
func crashNavURLs() []string {
	var us []string
	for j := range crashNav {
		us = append(us, crashURL(0, j))
	}
	return append(us, "http://c0.test/")
}

func crashWriter(path string) int {
	db, err := storage.Open(path, &storage.Options{LockTimeout: 5 * time.Second})
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer db.Close()
	k := uint64(0)
	if last, err := db.State("last"); err != nil {
		fmt.Println("error:", err)
		return 1
	} else if last != nil {
		k = binary.BigEndian.Uint64(last) + 1
	} else if _, err := db.Intern([]string{"http://c0.test/"}, storage.NoPage, 0); err != nil {
		fmt.Println("error:", err)
		return 1
	}
	w := bufio.NewWriter(os.Stdout)
	var b storage.Batch
	urls := make([]string, crashFan, crashFan+crashNav+1)
	urls = append(urls, crashNavURLs()...)
	for ; ; k++ {
		for j := range crashFan {
			urls[j] = crashURL(k, j)
		}
		res, err := db.Intern(urls, k, 1)
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		b.Reset()
		ls := make([]storage.Link, 0, len(urls))
		for _, r := range res {
			ls = append(ls, storage.Link{To: r.ID})
			if r.New {
				b.PutFrontier(storage.Entry{ID: r.ID, Host: "c.test", Prio: 1, Seq: r.ID})
			}
		}
		b.AddFetch(storage.Fetch{ID: k, Host: "c.test", Status: storage.StatusFetched, Code: 200,
			Hash: storage.HashOf([]byte(strconv.FormatUint(k, 10))), FetchedAt: time.Now()}, ls)
		b.Count("batches", 1)
		b.SetState("last", binary.BigEndian.AppendUint64(nil, k))
		if err := db.Commit(&b); err != nil {
			fmt.Println("error:", err)
			return 1
		}
		fmt.Fprintf(w, "committed %d\n", k)
		w.Flush()
	}
}

// TestCrashSafety kills the writer with SIGKILL at several points; after
// each kill the database must open cleanly and hold exactly the batches
// committed, each complete.
func TestCrashSafety(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash.db")
	printed := int64(-1)
	for round, after := range []int64{3, 17, 40, 9} {
		cmd, out := helper(t, "crash", path)
		target := printed + after
		for {
			line, err := out.ReadString('\n')
			if err != nil {
				t.Fatalf("round %d: helper output ended: %q, %v", round, line, err)
			}
			if !strings.HasPrefix(line, "committed ") {
				t.Fatalf("round %d: helper said %q", round, line)
			}
			k, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(line, "committed ")), 10, 64)
			printed = k
			if k >= target {
				break
			}
		}
		// The writer is busy with the next commit (or printing) when it dies.
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		// The writer may have run ahead of this reader: the lines it
		// printed before dying are still in the pipe.
		for {
			line, err := out.ReadString('\n')
			if k, perr := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(line, "committed ")), 10, 64); perr == nil && strings.HasPrefix(line, "committed ") {
				printed = k
			}
			if err != nil {
				break
			}
		}
		last := checkCrashDB(t, path, printed)
		t.Logf("round %d: killed after printing %d, db holds batches 0..%d", round, printed, last)
		printed = last
	}
}

// checkCrashDB verifies the invariants of the crash writer's database and
// returns the last committed batch.
func checkCrashDB(t *testing.T, path string, printed int64) int64 {
	t.Helper()
	db, err := storage.Open(path, &storage.Options{Verify: true})
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer db.Close()
	v, err := db.State("last")
	if err != nil || len(v) != 8 {
		t.Fatalf("state last = %v, %v", v, err)
	}
	last := int64(binary.BigEndian.Uint64(v))
	// The kill may land between a commit and its line, never before a
	// printed commit.
	if last != printed && last != printed+1 {
		t.Fatalf("db holds batches 0..%d, helper printed %d", last, printed)
	}
	n := uint64(1 + crashFan*(last+1))
	if got := db.NextID(); got != n {
		t.Fatalf("NextID = %d, want %d", got, n)
	}
	if c, _ := db.Counters(); c["batches"] != uint64(last+1) {
		t.Fatalf("counter batches = %d, want %d", c["batches"], last+1)
	}
	// Pages 0..last fetched with their full link lists; the rest queued.
	for id := uint64(0); id < n; id++ {
		p, err := db.Page(id)
		if err != nil {
			t.Fatalf("page %d: %v", id, err)
		}
		if int64(id) <= last {
			if p.Status != storage.StatusFetched {
				t.Fatalf("page %d status %v, want fetched", id, p.Status)
			}
			ls, err := db.Links(id)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]storage.Link, 0, crashFan+crashNav+1)
			for j := range crashFan {
				want = append(want, storage.Link{To: 1 + id*crashFan + uint64(j)})
			}
			for j := 0; j < crashNav && id > 0; j++ { // page 0's own links are the navigation
				want = append(want, storage.Link{To: 1 + uint64(j)})
			}
			want = append(want, storage.Link{To: 0})
			if !reflect.DeepEqual(ls, want) {
				t.Fatalf("links of %d = %v", id, ls)
			}
		} else if p.Status != storage.StatusQueued {
			t.Fatalf("page %d status %v, want queued", id, p.Status)
		}
		if id > 0 {
			k, j := (id-1)/crashFan, int((id-1)%crashFan)
			if p.URL != crashURL(k, j) {
				t.Fatalf("page %d URL %s, want %s", id, p.URL, crashURL(k, j))
			}
		}
	}
	// The frontier holds exactly the pages not fetched yet.
	next := uint64(last + 1)
	err = db.LoadFrontier(func(e storage.Entry) error {
		if e.ID != next {
			return fmt.Errorf("frontier entry %d, want %d", e.ID, next)
		}
		next++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if next != n {
		t.Fatalf("frontier ends at %d, want %d", next, n)
	}
	// The admitted index, kept by the commits, counts what the pages say.
	checkAdmitted(t, db, "after kill")
	return last
}
