package monitor

import (
	"bytes"
	"fmt"
	"html/template"
	"maps"
	"net/http"
	"slices"
	"time"
)

// pageTmpl is the status page: a summary, the hosts with the longest
// queues and the recent warnings, reloading itself like Heritrix's job
// page. html/template escapes every value, so host names and messages from
// hostile servers stay text.
var pageTmpl = template.Must(template.New("page").Funcs(template.FuncMap{
	"bytes":     ByteCount,
	"ago":       func(now, t time.Time) string { return fmtDur(now.Sub(t)) },
	"until":     func(now, t time.Time) string { return fmtDur(t.Sub(now)) },
	"sorted":    func(m map[string]uint64) []string { return slices.Sorted(maps.Keys(m)) },
	"stateKeys": func(m map[string]int) []string { return slices.Sorted(maps.Keys(m)) },
	"after":     func(a, b time.Time) bool { return a.After(b) },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="refresh" content="{{.Refresh}}">
<title>seedcrawl {{.S.Command}} · pid {{.S.PID}}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}
td,th{padding:2px 10px;border-bottom:1px solid #ddd;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.2em}
.warn{color:#a40}
</style></head><body>
<h1>seedcrawl {{.S.Command}}{{if .S.DB}} · {{.S.DB}}{{end}}</h1>
<p>pid {{.S.PID}} · cycle {{.S.Cycle}}{{if .S.NextCycle}} · waiting: cycle {{.S.NextCycle}} starts {{if after .S.NextCycleAt .S.Now}}in {{until .S.Now .S.NextCycleAt}}{{else}}now{{end}} (at {{.S.NextCycleAt.UTC.Format "2006-01-02 15:04:05 UTC"}}){{end}}{{if not .S.Start.IsZero}} · running {{ago .S.Now .S.Start}}{{end}} · page reloads every {{.Refresh}} s ·
<a href="status">status JSON</a> · <a href="metrics">metrics</a> · <a href="debug/pprof/">pprof</a></p>
<h2>Summary</h2>
<table>
<tr><th title="URLs whose outcome this run recorded, robots-denied included">pages (URLs done)</th><td class="n">{{.S.Pages}}</td></tr>
<tr><th title="HTTP requests for queued URLs and sitemaps, retries included, robots.txt not">fetches (requests)</th><td class="n">{{.S.Fetches}}</td></tr>
{{with .S.Recorded.Codes}}<tr><th>by HTTP code</th><td class="n">{{range $i, $c := sorted .}}{{if $i}} · {{end}}{{$c}}: {{index $.S.Recorded.Codes $c}}{{end}}</td></tr>{{end}}
<tr><th>bytes</th><td class="n">{{bytes .S.Bytes}}</td></tr>
<tr><th>discovered</th><td class="n">{{.S.Discovered}}</td></tr>
<tr><th>queued</th><td class="n">{{.S.Frontier}}</td></tr>
<tr><th>in flight</th><td class="n">{{.S.InFlight}}</td></tr>
{{if gt .S.Budget 0}}<tr><th>budget left</th><td class="n">{{.S.BudgetLeft}} of {{.S.Budget}}</td></tr>{{end}}
<tr><th>hosts</th><td class="n">{{.S.HostsTotal}}{{range stateKeys .S.HostStates}} · {{.}} {{index $.S.HostStates .}}{{end}}</td></tr>
</table>
{{with .S.Counters}}<h2>Counters</h2>
<table>{{range sorted .}}<tr><th>{{.}}</th><td class="n">{{index $.S.Counters .}}</td></tr>{{end}}</table>{{end}}
<h2>Hosts by queue length{{if lt (len .S.Hosts) .S.HostsTotal}} (top {{len .S.Hosts}} of {{.S.HostsTotal}}){{end}}</h2>
<table><tr><th>host</th><th class="n">queued</th><th class="n">in flight</th><th>state</th><th>ready</th><th>reason</th></tr>
{{range .S.Hosts}}<tr><td>{{.Name}}</td><td class="n">{{.Queue}}</td><td class="n">{{.InFlight}}</td><td>{{.State}}</td>
<td>{{if after .ReadyAt $.S.Now}}in {{until $.S.Now .ReadyAt}}{{else}}now{{end}}</td><td>{{.Reason}}</td></tr>
{{end}}</table>
<h2>Recent warnings</h2>
{{if .S.Warnings}}<table>{{range .Warnings}}<tr class="warn"><td>{{.Time.Format "15:04:05"}}</td><td>{{.Level}}</td><td>{{.Message}}</td></tr>{{end}}</table>
{{else}}<p>none</p>{{end}}
</body></html>
`))

// pageData is what pageTmpl renders.
type pageData struct {
	S        Status
	Refresh  int       // seconds
	Warnings []Warning // newest first
}

func (h *handler) page(w http.ResponseWriter, r *http.Request) {
	st := h.snapshot(pageHosts)
	d := pageData{S: st, Refresh: max(1, int(h.opts.Refresh.Round(time.Second)/time.Second))}
	for i := len(st.Warnings) - 1; i >= 0; i-- {
		d.Warnings = append(d.Warnings, st.Warnings[i])
	}
	var buf bytes.Buffer
	if err := pageTmpl.Execute(&buf, d); err != nil {
		http.Error(w, "monitor: render page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(buf.Bytes())
}

// ByteCount formats n bytes for people ("1.5 MiB"), as the status page
// shows them; the command line's summaries use it too, so both agree.
func ByteCount(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// fmtDur formats a duration to the second (to the millisecond below 1 s).
func fmtDur(d time.Duration) string {
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}
