package testweb

import (
	"math"
	"net/http"
	"testing"
	"time"
)

// TestEvolveWebLastModified serves an EvolveWeb web on loopback at epochs
// 0 and 2 and reads every page's Date and Last-Modified, as a crawler
// would. Date is the epoch's clock; Last-Modified is the truth's, never
// after Date, and answers If-Modified-Since with 304. A page changed at
// the epoch was last changed within the day before its Date; at epoch 0
// a page's age λ·(Date − Last-Modified), in epochs, is an Exp(1) draw,
// so its mean over the pages is 1 (the model the rate estimators assume:
// a stationary Poisson process), λ the rate of all its changes: its own,
// and new pages linking to it.
func TestEvolveWebLastModified(t *testing.T) {
	site := webSite(t, 5, 3000, 12)
	w, srv := startWeb(t, site, testOptions())
	c := srv.Client()
	day := 24 * time.Hour
	for _, epoch := range []int{0, 2} {
		if err := w.SetEpoch(epoch); err != nil {
			t.Fatal(err)
		}
		tr := w.Truth()
		var ages, changedNow, beyondDay, scaled float64
		checked := 0
		for v, u := range tr.Graph.URLs {
			info := tr.Nodes[v]
			if info.Kind != KindPage || info.Status != 200 || !(info.ChangeRate > 0) {
				continue
			}
			status, hdr, _ := fetch(t, c, u)
			if status != 200 {
				t.Fatalf("epoch %d: GET %s: %d", epoch, u, status)
			}
			date, err := http.ParseTime(hdr.Get("Date"))
			if err != nil || !date.Equal(EpochTime(epoch)) {
				t.Fatalf("epoch %d: %s: Date %q (%v), want %v", epoch, u, hdr.Get("Date"), err, EpochTime(epoch))
			}
			lm, err := http.ParseTime(hdr.Get("Last-Modified"))
			if err != nil || hdr.Get("Last-Modified") != tr.LastModified(uint32(v)) || lm.After(date) {
				t.Fatalf("epoch %d: %s: Last-Modified %q (%v), truth %q, Date %v", epoch, u, hdr.Get("Last-Modified"), err, tr.LastModified(uint32(v)), date)
			}
			if st, _, _ := fetch(t, c, u, "If-Modified-Since", hdr.Get("Last-Modified")); st != http.StatusNotModified {
				t.Fatalf("epoch %d: %s: If-Modified-Since its own Last-Modified: %d, want 304", epoch, u, st)
			}
			age := date.Sub(lm)
			checked++
			if info.Modified == epoch && epoch > 0 {
				changedNow++
				if age <= 0 || age > day {
					beyondDay++
				}
			}
			// The rate of a page's changes: its own, and new pages
			// linking to it.
			if epoch == 0 {
				if rate := info.ChangeRate + site.linkRate[v]; rate*maxPreAge.Hours()/24 > 20 {
					ages++
					scaled += rate * age.Hours() / 24
				}
			}
		}
		if checked < 1000 {
			t.Fatalf("epoch %d: only %d changing pages", epoch, checked)
		}
		switch epoch {
		case 0:
			if mean := scaled / ages; ages < 1000 || math.Abs(mean-1) > 0.1 {
				t.Errorf("epoch 0: mean λ·age %.3f over %g pages, want 1 ± 0.1", mean, ages)
			}
		default:
			if changedNow < 50 || beyondDay > 0 {
				t.Errorf("epoch %d: %g pages changed, %g of them last changed outside the day before Date", epoch, changedNow, beyondDay)
			}
		}
	}
}
