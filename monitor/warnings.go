package monitor

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// maxWarningLen bounds one kept message: a warning quoting a hostile
// server's header or URL must not pin a large buffer.
const maxWarningLen = 1024

// Warnings keeps the most recent warnings for the status page, in a ring
// of fixed size. Its Handler tees a slog.Handler into it, so the crawl's
// logger feeds it without knowing about the monitor. A nil *Warnings keeps
// nothing. Safe for concurrent use.
type Warnings struct {
	mu   sync.Mutex
	ring []Warning
	next int  // where the next warning goes
	full bool // ring has wrapped
}

// NewWarnings returns a Warnings that keeps the last n (at least 1).
func NewWarnings(n int) *Warnings {
	return &Warnings{ring: make([]Warning, max(n, 1))}
}

// Add keeps a warning, dropping the oldest when full. Messages longer
// than 1 KiB are cut.
func (w *Warnings) Add(t time.Time, level, msg string) {
	if w == nil {
		return
	}
	if len(msg) > maxWarningLen {
		msg = strings.ToValidUTF8(msg[:maxWarningLen], "") + "…"
	} else {
		msg = strings.Clone(msg)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ring[w.next] = Warning{Time: t, Level: level, Message: msg}
	w.next++
	if w.next == len(w.ring) {
		w.next, w.full = 0, true
	}
}

// Recent returns the kept warnings, oldest first.
func (w *Warnings) Recent() []Warning {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.full {
		return append([]Warning(nil), w.ring[:w.next]...)
	}
	out := make([]Warning, 0, len(w.ring))
	out = append(out, w.ring[w.next:]...)
	return append(out, w.ring[:w.next]...)
}

// Handler returns a slog.Handler that passes every record to next and
// keeps those at level Warn or above, formatted as "message key=value ...".
func (w *Warnings) Handler(next slog.Handler) slog.Handler {
	return &warnHandler{w: w, next: next}
}

type warnHandler struct {
	w     *Warnings
	next  slog.Handler
	attrs string // " k=v" pairs from WithAttrs, already formatted
	group string // group prefix "g." from WithGroup
}

func (h *warnHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn || h.next.Enabled(ctx, l)
}

func (h *warnHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		var b strings.Builder
		b.WriteString(r.Message)
		b.WriteString(h.attrs)
		r.Attrs(func(a slog.Attr) bool {
			writeAttr(&b, h.group, a)
			return b.Len() <= maxWarningLen
		})
		t := r.Time
		if t.IsZero() {
			t = time.Now()
		}
		h.w.Add(t, r.Level.String(), b.String())
	}
	if h.next.Enabled(ctx, r.Level) {
		return h.next.Handle(ctx, r)
	}
	return nil
}

func (h *warnHandler) WithAttrs(as []slog.Attr) slog.Handler {
	var b strings.Builder
	b.WriteString(h.attrs)
	for _, a := range as {
		writeAttr(&b, h.group, a)
	}
	return &warnHandler{w: h.w, next: h.next.WithAttrs(as), attrs: b.String(), group: h.group}
}

func (h *warnHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	return &warnHandler{w: h.w, next: h.next.WithGroup(name), attrs: h.attrs, group: h.group + name + "."}
}

// writeAttr appends " key=value", flattening groups into dotted keys.
func writeAttr(b *strings.Builder, prefix string, a slog.Attr) {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		p := prefix
		if a.Key != "" {
			p += a.Key + "."
		}
		for _, g := range v.Group() {
			writeAttr(b, p, g)
		}
		return
	}
	if a.Key == "" {
		return
	}
	b.WriteByte(' ')
	b.WriteString(prefix)
	b.WriteString(a.Key)
	b.WriteByte('=')
	b.WriteString(v.String())
}
