package gateway

import "bytes"

// maxLine is the most of one line an sseParser keeps (the rest of a longer line is dropped).
const maxLine = 1 << 20

// sseParser splits a byte stream, fed in pieces of any size, into server-sent events as the
// WHATWG event-stream format defines them: a line ends with CR, LF or CRLF; an empty line
// ends an event; the values of an event's "data" fields are joined by "\n" (one space after
// the colon is dropped); other fields and comments (lines starting with ":") are ignored; an
// event without a data field is not dispatched.
type sseParser struct {
	line    []byte
	data    []byte
	hasData bool
	lastCR  bool
}

// feed parses b and calls event with the data of each event it completes.
func (p *sseParser) feed(b []byte, event func(data []byte)) {
	for len(b) > 0 {
		if p.lastCR && b[0] == '\n' { // the LF of a CRLF
			b = b[1:]
			p.lastCR = false
			continue
		}
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			p.keep(b)
			return
		}
		p.keep(b[:i])
		p.lastCR = b[i] == '\r'
		p.endLine(event)
		b = b[i+1:]
	}
}

func (p *sseParser) keep(b []byte) {
	if room := maxLine - len(p.line); room < len(b) {
		b = b[:room]
	}
	p.line = append(p.line, b...)
}

func (p *sseParser) endLine(event func(data []byte)) {
	line := p.line
	p.line = p.line[:0]
	if len(line) == 0 {
		if p.hasData {
			event(p.data)
		}
		p.data, p.hasData = p.data[:0], false
		return
	}
	field, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], bytes.TrimPrefix(line[i+1:], []byte(" "))
	}
	if string(field) != "data" {
		return
	}
	if p.hasData {
		p.data = append(p.data, '\n')
	}
	p.data = append(p.data, value...)
	p.hasData = true
}
