package main

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// BenchmarkCluster crawls the test web (served by a child process) with
// `seedcrawl cluster --nodes K` on this machine, delays off, and reports
// throughput, CPU per page (all processes: nodes and the embedded NATS
// server; and the nodes alone), and the URL messages and bytes exchanged
// per page. K=1 is the same binary without any message between nodes.
// --max-depth -1: with a depth limit the K=3 crawl may keep a few URLs
// fewer near the limit (see ARCHITECTURE.md, "Exact and approximate").
func BenchmarkCluster(b *testing.B) {
	bin := seedcrawlBinary(b)
	for _, size := range []struct{ pages, hosts int }{{5000, 50}, {50000, 500}} {
		w := crawlStartBenchWeb(b, size.pages, size.hosts)
		for _, bk := range []struct {
			sched string
			k     int
		}{{"bfs", 1}, {"bfs", 3}, {"fpr", 1}, {"fpr", 3}} {
			k := bk.k
			// Under FPR every link to another node's URL carries its share
			// (a message per cross-node link); under BFS only new URLs and
			// shorter paths travel.
			b.Run(fmt.Sprintf("pages=%d/sched=%s/nodes=%d", size.pages, bk.sched, k), func(b *testing.B) {
				var pages, msgs, payload, wire uint64
				var wall, cpu, nodeCPU time.Duration
				for b.Loop() {
					dir := b.TempDir()
					args := []string{"cluster", "--nodes", strconv.Itoa(k), "--db", filepath.Join(dir, "c.db"), "--json",
						"--scope", "hosts:.test", "--workers", "8", "--host-concurrency", "2", "--delay", "0",
						"--delay-factor", "0", "--max-depth", "-1", "--scheduler", bk.sched, "--resolve-file", w.resolve, "--ca-file", w.ca, "--progress", "0"}
					cmd := exec.Command(bin, append(args, w.seeds...)...)
					t0 := time.Now()
					out, err := cmd.Output()
					if err != nil {
						b.Fatalf("cluster: %v", err)
					}
					wall += time.Since(t0)
					cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
					var rep struct{ Nodes []nodeReport }
					if err := json.Unmarshal(out, &rep); err != nil {
						b.Fatal(err)
					}
					for _, n := range rep.Nodes {
						pages += n.Summary.Pages
						msgs += n.Cluster.Published
						payload += n.Cluster.PubBytes
						wire += n.Cluster.OutBytes
						nodeCPU += time.Duration(n.CPUSeconds * float64(time.Second))
					}
				}
				p := float64(pages)
				b.ReportMetric(p/wall.Seconds(), "pages/s")
				b.ReportMetric(float64(cpu.Microseconds())/p, "cpu-µs/page")
				b.ReportMetric(float64(nodeCPU.Microseconds())/p, "node-cpu-µs/page")
				b.ReportMetric(float64(msgs)/p, "url-msgs/page")
				b.ReportMetric(float64(payload)/max(float64(msgs), 1), "payload-B/msg")
				b.ReportMetric(float64(wire)/p, "conn-out-B/page")
				b.ReportMetric(p/float64(b.N), "pages")
			})
		}
	}
}
