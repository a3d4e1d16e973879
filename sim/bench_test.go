package sim

import (
	"context"
	"testing"
)

// BenchmarkSim replays each scheduler on the shared datasets from the 160
// nodes of highest PageRank, reporting ns per link examined and µs per page.
// Run single-core: go test -run=^$ -bench=Sim -cpu 1 ./sim
//
// cnr-2000 has no URLs, hence no hosts; "cnr-2000+hosts" gives it a
// synthetic host map (1024 consecutive ids per host; LAW numbers pages in
// URL order, so neighbours in id tend to share a host) only to measure
// FPR@M's cost when it has both kinds of links to weigh.
func BenchmarkSim(b *testing.B) {
	for _, ds := range []string{"epa", "hollins", "cnr-2000", "cnr-2000+hosts"} {
		name := ds
		var hosts []uint32
		if ds == "cnr-2000+hosts" {
			name = "cnr-2000"
		}
		d := dataset(b, name)
		if ds == "cnr-2000+hosts" {
			hosts = make([]uint32, d.g.N())
			for v := range hosts {
				hosts[v] = uint32(v >> 10)
			}
		}
		s, err := New(d.g, Options{Seeds: topSeeds(b, d, 160), PageRank: d.pr, Hosts: hosts})
		if err != nil {
			b.Fatal(err)
		}
		scheds := []string{"bfs", "fpr", "fpr@2", "fpr@100", "opic", "backlink", "random", "omniscient", "rankmass-window@5"}
		if hosts != nil {
			scheds = []string{"fpr", "fpr@2", "fpr@100"}
		}
		for _, sn := range scheds {
			b.Run(ds+"/"+sn, func(b *testing.B) {
				var links, pages int
				for b.Loop() {
					c, err := s.Crawl(context.Background(), mustScheduler(b, s, sn), func(uint32) {})
					if err != nil {
						b.Fatal(err)
					}
					links += c.Links
					pages += c.Pages
				}
				ns := float64(b.Elapsed().Nanoseconds())
				b.ReportMetric(ns/float64(links), "ns/link")
				b.ReportMetric(ns/1e3/float64(pages), "µs/page")
			})
		}
	}
}
