package extract

import "bytes"

// Raw text: the content of script, style, textarea, title and the other
// raw-text elements, read up to their end tag as the Tokenizer reads it.

// readRawOrRCDATA reads the content of the raw text element s.rawTag, up
// to its end tag or the end of the body.
func (s *scanner) readRawOrRCDATA() {
	if s.rawTag == "script" {
		s.readScript()
		s.textIsRaw = true
		s.rawTag = ""
		return
	}
	b := s.b
	i := s.pos
	for {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			i = len(b)
			s.done = true
			break
		}
		i += j + 1
		if i < len(b) && b[i] == '/' {
			if end, ok := s.rawEndTag(i + 1); ok {
				i = end
				break
			} else if end < 0 {
				i = len(b)
				s.done = true
				break
			}
		}
	}
	s.pos, s.dataEnd = i, i
	s.textIsRaw = s.rawTag != "textarea" && s.rawTag != "title"
	s.rawTag = ""
}

// rawEndTag matches the end tag of s.rawTag at i (after "</"): it returns
// the position of its '<' and true, or false and 0, or -1 when the body
// ends while matching (the Tokenizer's readRawEndTag, which then stops).
func (s *scanner) rawEndTag(i int) (int, bool) {
	b, t := s.b, s.rawTag
	for k := 0; k < len(t); k++ {
		if i+k >= len(b) {
			return -1, false
		}
		if c := b[i+k]; c != t[k] && c != t[k]-('a'-'A') {
			return 0, false
		}
	}
	e := i + len(t)
	if e >= len(b) {
		return -1, false
	}
	switch b[e] {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		return i - 2, true
	}
	return 0, false
}

// readScript reads script data up to its end tag, through the escape
// states of the HTML standard ("<!--", "<script>" inside it), as the
// Tokenizer's readScript does.
func (s *scanner) readScript() {
	b := s.b
	n := len(b)
	i := s.pos
	s.rawTag = "script"
	defer func() { s.pos, s.dataEnd = i, i }()
	// endTag tries "</script" + terminator at i (after "</").
	endTag := func() (stop bool) {
		e, ok := s.rawEndTag(i)
		if ok {
			i = e
			return true
		}
		if e < 0 {
			i, s.done = n, true
			return true
		}
		return false
	}
	// read returns the next byte, or false at the end of the body.
	read := func() (byte, bool) {
		if i >= n {
			s.done = true
			return 0, false
		}
		i++
		return b[i-1], true
	}
	var c byte
	var ok bool
	// The escaped states (after "<!--") and the double-escaped ones (after
	// "<script" inside them) read alike: a run of '-' then '>' ends the
	// escape, '<' starts a possible tag. double tells which chain runs,
	// dashes counts the '-' just read (scriptData...Dash, ...DashDash).
	var double bool
	var dashes int

scriptData:
	if j := bytes.IndexByte(b[i:], '<'); j < 0 {
		i, s.done = n, true
		return
	} else {
		i += j + 1
	}
	// scriptDataLessThanSign
	if c, ok = read(); !ok {
		return
	}
	switch c {
	case '/':
		if endTag() {
			return
		}
		goto scriptData
	case '!':
		if c, ok = read(); !ok {
			return
		}
		if c != '-' {
			i--
			goto scriptData
		}
		if c, ok = read(); !ok {
			return
		}
		if c != '-' {
			i--
			goto scriptData
		}
		double, dashes = false, 2
		goto escaped
	}
	i--
	goto scriptData

escaped:
	for {
		if c, ok = read(); !ok {
			return
		}
		switch c {
		case '-':
			dashes++
			continue
		case '<':
			dashes = 0
			if double {
				goto scriptDataDoubleEscapedLessThanSign
			}
			goto scriptDataEscapedLessThanSign
		case '>':
			if dashes >= 2 {
				goto scriptData
			}
		}
		dashes = 0
	}

scriptDataEscapedLessThanSign:
	if c, ok = read(); !ok {
		return
	}
	if c == '/' {
		if endTag() {
			return
		}
		goto escaped
	}
	if isASCIILetter(c) {
		i--
		for k := 0; k < len("script"); k++ {
			if c, ok = read(); !ok {
				return
			}
			if c != "script"[k] && c != "SCRIPT"[k] {
				i--
				goto escaped
			}
		}
		if c, ok = read(); !ok {
			return
		}
		switch c {
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			double = true
			goto escaped
		}
		i--
		goto escaped
	}
	i--
	goto scriptData

scriptDataDoubleEscapedLessThanSign:
	if c, ok = read(); !ok {
		return
	}
	if c != '/' {
		i--
		goto escaped
	}
	// scriptDataDoubleEscapeEnd
	if e, ok := s.rawEndTag(i); ok {
		i = e + len("</script>")
		double = false
		goto escaped
	} else if e < 0 {
		i, s.done = n, true
		return
	}
	goto escaped
}
