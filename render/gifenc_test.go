package render

import (
	"bytes"
	"compress/lzw"
	"io"
	"math/rand/v2"
	"testing"
)

// TestLZWMatchesCompressLZW: our LZW stream decodes with compress/lzw to
// the input and is byte for byte what compress/lzw's writer makes (the
// same greedy parse and code widths), with or without the run fast path,
// on inputs that fill the string table many times: random bytes, long
// runs, and runs broken by other bytes.
func TestLZWMatchesCompressLZW(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for _, lit := range []uint{2, 6, 8} {
		inputs := map[string][]byte{"empty": nil, "one byte": {1}}
		random := make([]byte, 200000)
		for i := range random {
			random[i] = byte(r.IntN(1 << lit))
		}
		inputs["random"] = random
		runs := make([]byte, 0, 300000)
		for len(runs) < 300000 {
			b := byte(r.IntN(1 << lit))
			if r.IntN(2) == 0 {
				b = 1 // the run byte
			}
			for n := r.IntN(3000); n > 0; n-- {
				runs = append(runs, b)
			}
		}
		inputs["runs"] = runs
		inputs["one run"] = bytes.Repeat([]byte{1}, 100000)
		e := &lzwEncoder{}
		e.setup(lit)
		for name, in := range inputs {
			var want bytes.Buffer
			w := lzw.NewWriter(&want, lzw.LSB, int(lit))
			w.Write(in)
			w.Close()
			for _, run := range []int{-1, 1} {
				got := e.encode(nil, in, run)
				if !bytes.Equal(got, want.Bytes()) {
					t.Errorf("lit %d, %s, run %d: %d bytes, compress/lzw makes %d", lit, name, run, len(got), want.Len())
				}
				back, err := io.ReadAll(lzw.NewReader(bytes.NewReader(got), lzw.LSB, int(lit)))
				if err != nil || !bytes.Equal(back, in) {
					t.Errorf("lit %d, %s, run %d: decodes to %d bytes (%v), want the %d of the input", lit, name, run, len(back), err, len(in))
				}
			}
		}
	}
}

// TestLZWTableGenerations: when its generation counter wraps, the table
// is cleared: the strings of an earlier stream with the same generation
// are not used.
func TestLZWTableGenerations(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	stream := func() []byte {
		b := make([]byte, 3000)
		for i := range b {
			b[i] = byte(r.IntN(4))
		}
		return b
	}
	e := &lzwEncoder{}
	e.setup(2)
	e.encode(nil, stream(), -1) // generation 1
	e.gen = lzwMaxGen           // the next stream wraps to generation 1
	in := stream()
	var want bytes.Buffer
	w := lzw.NewWriter(&want, lzw.LSB, 2)
	w.Write(in)
	w.Close()
	if got := e.encode(nil, in, -1); !bytes.Equal(got, want.Bytes()) || e.gen > 2 {
		t.Fatalf("the stream after the wrap differs (generation %d)", e.gen)
	}
}
