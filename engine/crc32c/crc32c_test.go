package crc32c

import (
	"bytes"
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func want(crc uint32, p []byte) uint32 { return crc32.Update(crc, castagnoli, p) }

func random(seed uint64, n int) []byte {
	b := make([]byte, n)
	r := rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), byte(seed >> 16)})
	_, _ = r.Read(b)
	return b
}

// eachPath runs f once for every way this machine can compute the sum,
// by name.
func eachPath(t *testing.T, f func(t *testing.T)) {
	for _, p := range paths() {
		t.Run(p.name, func(t *testing.T) {
			p.use(t)
			f(t)
		})
	}
}

func TestEveryLengthAndAlignment(t *testing.T) {
	buf := random(1, 4096+64)
	eachPath(t, func(t *testing.T) {
		for align := range 64 {
			for n := 0; n <= 4096; n++ {
				p := buf[align : align+n]
				crc := uint32(n * 2654435761)
				if got, w := Update(crc, p), want(crc, p); got != w {
					t.Fatalf("length %d at alignment %d from %#08x: %#08x, want %#08x", n, align, crc, got, w)
				}
			}
		}
	})
}

func TestLargeBuffers(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		for i, n := range []int{1 << 16, 1<<20 + 3, 8<<20 - 17, 3<<20 + 255} {
			p := random(uint64(10+i), n)
			if got, w := Checksum(p), want(0, p); got != w {
				t.Fatalf("%d bytes: %#08x, want %#08x", n, got, w)
			}
		}
	})
}

func TestChainedSplits(t *testing.T) {
	p := random(2, 1<<18)
	whole := want(0, p)
	r := rand.New(rand.NewPCG(3, 4))
	eachPath(t, func(t *testing.T) {
		for range 200 {
			var crc uint32
			for rest := p; len(rest) > 0; {
				n := min(len(rest), r.IntN(3)*r.IntN(9000)+r.IntN(300))
				crc = Update(crc, rest[:n])
				rest = rest[n:]
			}
			if crc != whole {
				t.Fatalf("in pieces: %#08x, whole: %#08x", crc, whole)
			}
		}
	})
}

// TestEdgeBytes puts all-ones and all-zero blocks, which carry-less
// products treat at their extremes, through every path.
func TestEdgeBytes(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		for _, fill := range []byte{0x00, 0xff, 0x80, 0x01} {
			for _, n := range []int{256, 272, 320, 512, 4096, 65536 + 48} {
				p := bytes.Repeat([]byte{fill}, n)
				for _, crc := range []uint32{0, 0xffffffff, 0x80000000, 1} {
					if got, w := Update(crc, p), want(crc, p); got != w {
						t.Fatalf("%d bytes of %#02x from %#08x: %#08x, want %#08x", n, fill, crc, got, w)
					}
				}
			}
		}
	})
}

func TestHash(t *testing.T) {
	p := random(5, 10000)
	h, w := New(), crc32.New(castagnoli)
	for _, chunk := range [][]byte{p[:1], p[1:300], p[300:9000], p[9000:]} {
		_, _ = h.Write(chunk)
		_, _ = w.Write(chunk)
	}
	if h.Sum32() != w.Sum32() || !bytes.Equal(h.Sum([]byte("x")), w.Sum([]byte("x"))) {
		t.Fatalf("Sum32 %#08x / Sum %x, want %#08x / %x", h.Sum32(), h.Sum(nil), w.Sum32(), w.Sum(nil))
	}
	if h.Size() != w.Size() || h.BlockSize() != w.BlockSize() {
		t.Fatalf("Size %d BlockSize %d, want %d and %d", h.Size(), h.BlockSize(), w.Size(), w.BlockSize())
	}
	h.Reset()
	if h.Sum32() != 0 {
		t.Fatalf("after Reset: %#08x", h.Sum32())
	}
}

func FuzzUpdate(f *testing.F) {
	f.Add(uint32(0), []byte(""), 0)
	f.Add(uint32(0xffffffff), []byte("hello, world"), 3)
	f.Add(uint32(0x12345678), random(6, 300), 17)
	f.Add(uint32(1), random(7, 4099), 1024)
	f.Add(uint32(0), bytes.Repeat([]byte{0xff}, 1000), 500)
	f.Fuzz(func(t *testing.T, crc uint32, p []byte, split int) {
		w := want(crc, p)
		for _, p0 := range paths() {
			p0.use(t)
			if got := Update(crc, p); got != w {
				t.Fatalf("%s: %d bytes from %#08x: %#08x, want %#08x", p0.name, len(p), crc, got, w)
			}
			if split >= 0 && split <= len(p) {
				if got := Update(Update(crc, p[:split]), p[split:]); got != w {
					t.Fatalf("%s: split at %d of %d: %#08x, want %#08x", p0.name, split, len(p), got, w)
				}
			}
		}
	})
}

// BenchmarkUpdate compares every path this machine has, hash/crc32's
// ("stdlib") among them, at each size.
func BenchmarkUpdate(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"256B", 256}, {"1KiB", 1 << 10}, {"4KiB", 4 << 10}, {"64KiB", 64 << 10}, {"1MiB", 1 << 20}, {"8MiB", 8 << 20}} {
		p := random(8, size.n)
		for _, path := range paths() {
			b.Run(size.name+"/"+path.name, func(b *testing.B) {
				path.use(b)
				b.SetBytes(int64(size.n))
				for b.Loop() {
					Update(0, p)
				}
			})
		}
	}
}
