package extract

import (
	"testing"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestKindNamesAreStored checks that every Kind's name is the name of the
// storage.LinkKind a link of that kind is stored as: the crawler converts
// one into the other by name.
func TestKindNamesAreStored(t *testing.T) {
	want := map[Kind]storage.LinkKind{
		KindA: storage.LinkA, KindArea: storage.LinkArea, KindFrame: storage.LinkFrame, KindIframe: storage.LinkIFrame,
		KindCanonical: storage.LinkCanonical, KindAlternate: storage.LinkAlternate, KindNext: storage.LinkNext,
		KindPrev: storage.LinkPrev,
	}
	for k := Kind(1); int(k) < len(kindNames); k++ {
		got, err := storage.ParseLinkKind(k.String())
		if err != nil || got != want[k] {
			t.Errorf("storage.ParseLinkKind(%v) = %v, %v; want %v", k, got, err, want[k])
		}
	}
	if len(want) != len(kindNames)-1 {
		t.Errorf("%d kinds checked, extract has %d", len(want), len(kindNames)-1)
	}
}
