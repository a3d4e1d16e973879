package testweb

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// png1x1 is a valid 1×1 transparent PNG.
const png1x1 = ("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
	"\x00\x00\x00\rIDATx\x9cc\x00\x01\x00\x00\x05\x00\x01\r\n-\xb4\x00\x00\x00\x00IEND\xaeB`\x82")

// renderResource appends the body of a non-HTML resource. Its bytes depend
// on the node and version, so ETags and bodies change together.
func (s *Site) renderResource(buf []byte, st *state, id uint32) []byte {
	n := &st.nodes[id]
	url := s.url(st, id)
	switch n.ctype {
	case ctPNG:
		buf = append(buf, png1x1...)
		// A tEXt-like trailer after IEND is ignored by decoders and keeps
		// every version's bytes distinct.
		return fmt.Appendf(buf, "%s v%d", url, n.ver)
	case ctPDF:
		text := fmt.Sprintf("(%s version %d)", url, n.ver)
		buf = append(buf, "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"...)
		buf = append(buf, "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n"...)
		buf = append(buf, "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R >> endobj\n"...)
		stream := "BT /F1 10 Tf 10 50 Td " + text + " Tj ET"
		buf = fmt.Appendf(buf, "4 0 obj << /Length %d >> stream\n%s\nendstream endobj\ntrailer << /Root 1 0 R >>\n%%%%EOF\n", len(stream), stream)
		return buf
	default:
		return fmt.Appendf(buf, "/* %s version %d */\nbody { font-family: serif; margin: 2em; }\na { color: #225; }\n", url, n.ver)
	}
}

const hugeHead = "<!DOCTYPE html>\n<html><head><title>a very large page</title></head><body>\n"
const hugeTail = "\n</body></html>\n"

// makeFiller returns 64 KiB of paragraphs for the huge page.
func makeFiller() []byte {
	var b bytes.Buffer
	g := wordGen{h: 0x4a6e}
	for b.Len() < 64<<10 {
		b.WriteString("<p>")
		b.Write(g.words(nil, 14))
		b.WriteString("</p>\n")
	}
	return b.Bytes()[:64<<10]
}

// serveHuge streams exactly HugeSize bytes of HTML without links.
func (w *Web) serveHuge(rw http.ResponseWriter, r *http.Request) {
	h := rw.Header()
	h["Content-Type"] = w.hHTML
	h["Content-Length"] = []string{strconv.FormatInt(w.o.HugeSize, 10)}
	rw.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	if _, err := rw.Write([]byte(hugeHead)); err != nil {
		return
	}
	left := w.o.HugeSize - int64(len(hugeHead)) - int64(len(hugeTail))
	for left > 0 {
		c := w.filler
		if int64(len(c)) > left {
			c = c[:left]
		}
		if _, err := rw.Write(c); err != nil {
			return
		}
		left -= int64(len(c))
	}
	rw.Write([]byte(hugeTail))
}

// bombBytes returns the gzip bomb: a member holding the start of an HTML
// page followed by members of 1 MiB of spaces each (gzip readers
// concatenate members), BombSize bytes decompressed in all. Deflate cannot
// beat about 1000:1, so 1 GiB costs about 1 MiB on the wire.
func (w *Web) bombBytes() []byte {
	w.bombOnce.Do(func() {
		const head = "<!DOCTYPE html>\n<html><head><title>bomb</title></head><body>\n"
		var out bytes.Buffer
		out.Write(gzipMember([]byte(head)))
		writeSpaceMembers(&out, w.o.BombSize-int64(len(head)))
		w.bomb = out.Bytes()
	})
	return w.bomb
}

// writeSpaceMembers writes n spaces to out as gzip members of 1 MiB each
// (the last one shorter): the bulk of a bomb, about 1 KiB on the wire per
// MiB decompressed, as deflate cannot beat about 1000:1.
func writeSpaceMembers(out *bytes.Buffer, n int64) {
	const chunk = 1 << 20
	full := gzipMember(bytes.Repeat([]byte{' '}, chunk))
	for ; n >= chunk; n -= chunk {
		out.Write(full)
	}
	if n > 0 {
		out.Write(gzipMember(bytes.Repeat([]byte{' '}, int(n))))
	}
}

// serveBomb sends the bomb with Content-Encoding: gzip whatever the client
// accepts, as hostile servers do.
func (w *Web) serveBomb(rw http.ResponseWriter, r *http.Request) {
	rw.Header()["Content-Encoding"] = []string{"gzip"}
	writeBody(rw, r, w.hHTML, w.bombBytes())
}

// trapKind classifies a path of trap.test: the calendar, the deep paths, or
// neither. Only canonical spellings are trap pages, so each has one URL.
func trapKind(target string) (calendar bool, year, month int, deep bool) {
	if rest, ok := strings.CutPrefix(target, "/calendar/"); ok {
		y, m, ok := strings.Cut(strings.TrimSuffix(rest, "/"), "/")
		yy, err1 := strconv.Atoi(y)
		mm, err2 := strconv.Atoi(m)
		if ok && err1 == nil && err2 == nil && yy >= 1 && yy < 1e9 && mm >= 1 && mm <= 12 &&
			target == calendarPath(yy, mm) {
			return true, yy, mm, false
		}
		return false, 0, 0, false
	}
	if rest, ok := strings.CutPrefix(target, trapDeepStart); ok {
		for rest != "" {
			if rest, ok = strings.CutPrefix(rest, "sub/"); !ok {
				return false, 0, 0, false
			}
		}
		return false, 0, 0, true
	}
	return false, 0, 0, false
}

func calendarPath(y, m int) string { return fmt.Sprintf("/calendar/%04d/%02d/", y, m) }

// isTrapTarget reports whether the path-and-query of a trap.test URL is a
// page of one of its infinite traps.
func isTrapTarget(target string) bool {
	cal, _, _, deep := trapKind(target)
	return cal || deep
}

// serveTrap serves the infinite calendar (each month links to the previous
// one relatively and to the next one host-relatively) and the ever-deeper
// /deep/sub/sub/... pages (each links to "sub/").
func (w *Web) serveTrap(rw http.ResponseWriter, r *http.Request, target string) {
	cal, y, m, deep := trapKind(target)
	if !cal && !deep {
		w.plain(rw, http.StatusNotFound, "not found\n")
		return
	}
	st := w.cur.Load()
	etag := `"trap-` + strconv.FormatUint(hashMix(w.site.seed^hashString(target)), 16) + `"`
	if w.validators(rw, r, etag, st.lm[0], EpochTime(0)) {
		return
	}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><title>")
	if cal {
		py, pm := y, m-1
		if pm == 0 {
			py, pm = y-1, 12
		}
		ny, nm := y, m+1
		if nm == 13 {
			ny, nm = y+1, 1
		}
		fmt.Fprintf(&b, "Calendar %04d-%02d</title></head><body>\n<h1>Events in %04d-%02d</h1>\n", y, m, y, m)
		if py >= 1 {
			fmt.Fprintf(&b, "<p><a href=\"../../%04d/%02d/\">previous month</a></p>\n", py, pm)
		}
		fmt.Fprintf(&b, "<p><a href=\"%s\">next month</a></p>\n", calendarPath(ny, nm))
	} else {
		fmt.Fprintf(&b, "Deeper: %s</title></head><body>\n<p><a href=\"sub/\">go deeper</a></p>\n", target)
	}
	b.WriteString("<p><a href=\"/\">home</a></p>\n</body></html>\n")
	writeBody(rw, r, w.hHTML, []byte(b.String()))
}

// hashString is FNV-1a.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
