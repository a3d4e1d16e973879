package graph

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteEdgeList writes g as a plain edge list: one line "src<TAB>dst" per
// arc in node order, no header, so networkx (read_edgelist), igraph
// (Read_Edgelist) and ReadSNAP all read it. Ids are g's labels when it has
// them (the original ids of a SNAP file, so the file round-trips), else its
// dense node ids. Isolated nodes have no line and are lost; GraphML and
// Pajek keep them.
func WriteEdgeList(w io.Writer, g *CSR) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	buf := make([]byte, 0, 48)
	id := func(v uint32) uint64 {
		if g.Labels != nil {
			return g.Labels[v]
		}
		return uint64(v)
	}
	for v := 0; v < g.N(); v++ {
		for _, t := range g.Out(uint32(v)) {
			buf = strconv.AppendUint(buf[:0], id(uint32(v)), 10)
			buf = append(buf, '\t')
			buf = strconv.AppendUint(buf, id(t), 10)
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return fmt.Errorf("graph: write edge list: %w", err)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("graph: write edge list: %w", err)
	}
	return nil
}

// WriteGraphML writes g as a directed GraphML document
// (graphml.graphdrawing.org), as networkx.read_graphml and igraph's
// Read_GraphML read it: node "n<v>" for node v, with a "url" attribute when
// g has URLs and a "label" attribute (the file's original id) when it has
// labels; one <edge> per arc, parallel arcs and self-loops included.
func WriteGraphML(w io.Writer, g *CSR) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	bw.WriteString(`<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">` + "\n")
	if g.URLs != nil {
		bw.WriteString(`  <key id="url" for="node" attr.name="url" attr.type="string"/>` + "\n")
	}
	if g.Labels != nil {
		bw.WriteString(`  <key id="label" for="node" attr.name="label" attr.type="long"/>` + "\n")
	}
	bw.WriteString(`  <graph id="G" edgedefault="directed">` + "\n")
	buf := make([]byte, 0, 256)
	for v := 0; v < g.N(); v++ {
		buf = append(buf[:0], `    <node id="n`...)
		buf = strconv.AppendUint(buf, uint64(v), 10)
		buf = append(buf, '"')
		if g.URLs == nil && g.Labels == nil {
			buf = append(buf, "/>\n"...)
		} else {
			buf = append(buf, '>')
			if g.URLs != nil {
				buf = append(buf, `<data key="url">`...)
				buf = appendXMLEscaped(buf, g.URLs[v])
				buf = append(buf, "</data>"...)
			}
			if g.Labels != nil {
				buf = append(buf, `<data key="label">`...)
				buf = strconv.AppendUint(buf, g.Labels[v], 10)
				buf = append(buf, "</data>"...)
			}
			buf = append(buf, "</node>\n"...)
		}
		bw.Write(buf)
	}
	for v := 0; v < g.N(); v++ {
		for _, t := range g.Out(uint32(v)) {
			buf = append(buf[:0], `    <edge source="n`...)
			buf = strconv.AppendUint(buf, uint64(v), 10)
			buf = append(buf, `" target="n`...)
			buf = strconv.AppendUint(buf, uint64(t), 10)
			buf = append(buf, "\"/>\n"...)
			bw.Write(buf)
		}
	}
	bw.WriteString("  </graph>\n</graphml>\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("graph: write GraphML: %w", err)
	}
	return nil
}

// appendXMLEscaped appends s with the five XML special characters escaped
// and the characters XML 1.0 cannot hold at all (controls other than tab,
// LF and CR, invalid UTF-8) replaced by U+FFFD, so any URL gives a
// well-formed document.
func appendXMLEscaped(b []byte, s string) []byte {
	for _, r := range s {
		switch {
		case r == '<':
			b = append(b, "&lt;"...)
		case r == '>':
			b = append(b, "&gt;"...)
		case r == '&':
			b = append(b, "&amp;"...)
		case r == '"':
			b = append(b, "&quot;"...)
		case r == '\'':
			b = append(b, "&apos;"...)
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0xFFFE, r == 0xFFFF:
			b = append(b, "\uFFFD"...)
		default:
			b = append(b, string(r)...)
		}
	}
	return b
}

// WritePajek writes g in Pajek .net form, as networkx.read_pajek and
// igraph's Read_Pajek read it: "*Vertices N", then "k "name"" for each node
// k = v+1 (Pajek counts from 1), then "*Arcs" with one "u w" line per arc.
// The name is the node's URL, else its label, else its 0-based id; networkx
// uses names as node keys, so they are unique for any graph seedcrawl
// builds (URLs and labels are). Pajek has no escape for '"' or whitespace
// inside a name, so those are percent-encoded.
func WritePajek(w io.Writer, g *CSR) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "*Vertices %d\n", g.N())
	buf := make([]byte, 0, 256)
	for v := 0; v < g.N(); v++ {
		buf = strconv.AppendUint(buf[:0], uint64(v)+1, 10)
		buf = append(buf, ` "`...)
		switch {
		case g.URLs != nil && g.URLs[v] == "":
			// Escaped names never hold "%_" (a '%' is always followed by
			// two hex digits), so this cannot collide with a URL.
			buf = append(buf, "%_"...)
			buf = strconv.AppendUint(buf, uint64(v), 10)
		case g.URLs != nil:
			buf = append(buf, pajekName(g.URLs[v])...)
		case g.Labels != nil:
			buf = strconv.AppendUint(buf, g.Labels[v], 10)
		default:
			buf = strconv.AppendUint(buf, uint64(v), 10)
		}
		buf = append(buf, "\"\n"...)
		bw.Write(buf)
	}
	bw.WriteString("*Arcs\n")
	for v := 0; v < g.N(); v++ {
		for _, t := range g.Out(uint32(v)) {
			buf = strconv.AppendUint(buf[:0], uint64(v)+1, 10)
			buf = append(buf, ' ')
			buf = strconv.AppendUint(buf, uint64(t)+1, 10)
			buf = append(buf, '\n')
			bw.Write(buf)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("graph: write Pajek: %w", err)
	}
	return nil
}

// pajekName makes s safe inside a quoted Pajek name.
func pajekName(s string) string {
	if !strings.ContainsAny(s, "\" \t\r\n%") {
		return s
	}
	return strings.NewReplacer(`"`, "%22", " ", "%20", "\t", "%09", "\r", "%0D", "\n", "%0A", "%", "%25").Replace(s)
}
