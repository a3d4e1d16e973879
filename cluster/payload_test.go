package cluster

import (
	"errors"
	"math"
	"testing"
)

func TestPayloadRoundTrip(t *testing.T) {
	for _, u := range []URL{
		{URL: "http://a.test/", Depth: 0, Mass: 0},
		{URL: "http://b.test:8080/x?y=1", Depth: 17, Mass: 0.125},
		{URL: "https://c.test/é", Depth: 1 << 20, Mass: 1e-300},
		{URL: "http://d.test/moved", Depth: 3, Mass: 0.5, Known: true},
	} {
		got, err := decodeURL(u.encode(nil))
		if err != nil || got != u {
			t.Errorf("decode(encode(%+v)) = %+v, %v", u, got, err)
		}
	}
}

func TestPayloadMalformed(t *testing.T) {
	good := URL{URL: "http://a.test/", Depth: 2, Mass: 0.5}.encode(nil)
	nan := URL{URL: "http://a.test/", Mass: math.NaN()}.encode(nil)
	neg := URL{URL: "http://a.test/", Mass: -1}.encode(nil)
	tests := []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"bad version", append([]byte{9}, good[1:]...)},
		{"truncated depth", []byte{payloadVersion, 0x80}},
		{"short mass", good[:5]},
		{"no url", good[:10]},
		{"nan mass", nan},
		{"negative mass", neg},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := decodeURL(tc.b); !errors.Is(err, ErrPayload) {
				t.Fatalf("decode = %v, want ErrPayload", err)
			}
		})
	}
}

func TestMsgIDStable(t *testing.T) {
	a, b := MsgID("http://a.test/", "0/1.7"), MsgID("http://a.test/", "0/1.7")
	if a != b || len(a) != 32 || a == MsgID("http://a.test/x", "0/1.7") || a == MsgID("http://a.test/", "1/1.7") ||
		MsgID("http://a.test/x", "") == MsgID("http://a.test/", "x") {
		t.Fatalf("MsgID not a stable 32-char hash: %q %q", a, b)
	}
}
