package gateway

import (
	"reflect"
	"testing"
)

// The events of a stream, fed whole and in every split into two pieces.
func TestSSEParser(t *testing.T) {
	stream := ": comment\r\n\r\n" + // a comment: no event
		"event: delta\ndata: one\n\n" +
		"data: two\r\ndata:  three\r\n\r\n" + // two data lines, one space dropped
		"id: 7\n\n" + // no data: no event
		"data\rdata: [DONE]\r\r" // a field without a colon is an empty value
	want := []string{"one", "two\n three", "\n[DONE]"}
	for cut := 0; cut <= len(stream); cut++ {
		var p sseParser
		var got []string
		collect := func(d []byte) { got = append(got, string(d)) }
		p.feed([]byte(stream[:cut]), collect)
		p.feed([]byte(stream[cut:]), collect)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("split at %d: %q, want %q", cut, got, want)
		}
	}
}

func TestDefaultTokenFilter(t *testing.T) {
	for data, want := range map[string]bool{"[DONE]": false, " [DONE] ": false, "{}": true, "": true} {
		if notDone([]byte(data)) != want {
			t.Errorf("notDone(%q) != %v", data, want)
		}
	}
}
