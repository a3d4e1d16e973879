package frontier

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestHold parks Next on a frontier under a Hold, then applies one event
// and checks what Next returns: a job as URLs come, ErrExhausted once
// the last hold is released, and, when its ctx ends, whether it was dry.
func TestHold(t *testing.T) {
	tests := []struct {
		name string
		// busy leaves a job of host a in flight (and a second URL of a
		// queued behind it) before the hold: Next parks, but not dry.
		busy    bool
		event   func(t *testing.T, f *Frontier, cancel context.CancelFunc, busy Job)
		wantID  uint64 // the job Next returns (0: an error)
		dry     bool   // the error is ErrExhausted
		stopped bool   // the error is ctx's
	}{
		{
			name: "URLs come while held",
			event: func(t *testing.T, f *Frontier, _ context.CancelFunc, _ Job) {
				if err := f.Seed([]Target{{ID: 7, Host: "b", New: true}}, nil); err != nil {
					t.Fatal(err)
				}
			},
			wantID: 7,
		},
		{
			name:  "released",
			event: func(_ *testing.T, f *Frontier, _ context.CancelFunc, _ Job) { f.Release() },
			dry:   true,
		},
		{
			name: "nested holds: one release keeps it open",
			event: func(t *testing.T, f *Frontier, _ context.CancelFunc, _ Job) {
				f.Hold()
				f.Release()
				if n := f.Add([]Target{{ID: 8, Host: "c", New: true}}, 1, nil); n != 1 {
					t.Fatalf("Add queued %d, want 1", n)
				}
			},
			wantID: 8,
		},
		{
			name:    "stopped while dry",
			event:   func(_ *testing.T, _ *Frontier, cancel context.CancelFunc, _ Job) { cancel() },
			dry:     true,
			stopped: true,
		},
		{
			name:    "stopped while a job is in flight",
			busy:    true,
			event:   func(_ *testing.T, _ *Frontier, cancel context.CancelFunc, _ Job) { cancel() },
			stopped: true,
		},
		{
			// The last job's Done leaves the frontier dry, and what its
			// outcome adds after comes under the same hold.
			name: "the last job done, then URLs added",
			busy: true,
			event: func(t *testing.T, f *Frontier, _ context.CancelFunc, busy Job) {
				if err := f.Complete(busy, Outcome{Downloaded: true, Delay: time.Hour}, nil); err != nil {
					t.Fatal(err)
				}
				if err := f.Seed([]Target{{ID: 9, Host: "d", New: true}}, nil); err != nil {
					t.Fatal(err)
				}
			},
			wantID: 9,
		},
		{
			// Next parked while the job was in flight; its Done, under
			// the hold, left the frontier dry without waking it. Stopped
			// then, it was dry: a fed crawl ended by its caller so is
			// exhausted, not interrupted.
			name: "the last job done, then stopped",
			busy: true,
			event: func(t *testing.T, f *Frontier, cancel context.CancelFunc, busy Job) {
				if err := f.Complete(busy, Outcome{Downloaded: true, Delay: time.Hour}, nil); err != nil {
					t.Fatal(err)
				}
				cancel()
			},
			dry:     true,
			stopped: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			clk := newFakeClock()
			f := newFrontier(t, bfsSched{}, clk, 1)
			var busy Job
			if tc.busy {
				if err := f.Seed([]Target{{ID: 1, Host: "a", New: true}}, nil); err != nil {
					t.Fatal(err)
				}
				busy = mustNext(t, f)
			}
			f.Hold()
			res := goNext(ctx, f)
			waitBlocked(t, f, clk)
			tc.event(t, f, cancel, busy)
			r := <-res
			if tc.wantID != 0 {
				if r.err != nil || r.job.ID != tc.wantID {
					t.Fatalf("Next = %d, %v; want job %d", r.job.ID, r.err, tc.wantID)
				}
				return
			}
			if dry := errors.Is(r.err, ErrExhausted); dry != tc.dry {
				t.Fatalf("Next err = %v: exhausted %v, want %v", r.err, dry, tc.dry)
			}
			if stopped := errors.Is(r.err, context.Canceled); stopped != tc.stopped {
				t.Fatalf("Next err = %v: stopped %v, want %v", r.err, stopped, tc.stopped)
			}
		})
	}
}

// TestReleaseWithoutHold checks that an unbalanced Release is caught.
func TestReleaseWithoutHold(t *testing.T) {
	f := newFrontier(t, bfsSched{}, newFakeClock(), 1)
	defer func() {
		if recover() == nil {
			t.Fatal("Release without Hold did not panic")
		}
	}()
	f.Release()
}
