//go:build amd64 && !purego

package crc32c

import (
	"fmt"
	"hash/crc32"
	"math/bits"
	"testing"
)

// xPowMod returns x^n modulo Castagnoli's polynomial, in the usual order
// (bit e is the coefficient of x^e).
func xPowMod(n int) uint32 {
	p := bits.Reverse32(crc32.Castagnoli) // x^32 is implied
	r := uint32(1)
	for range n {
		top := r >> 31
		r <<= 1
		if top != 0 {
			r ^= p
		}
	}
	return r
}

// foldPair is the pair of constants that fold a 128-bit lane forward by d
// bits: the lane's first 64 bits (the higher powers) are multiplied by
// x^(d+63) mod P, its last 64 by x^(d-1) mod P. Both are bit-reflected into
// 64 bits (x^e at bit 63-e), so that PCLMULQDQ of two reflected values,
// whose product comes out one power of x short, gives x^(d+64) and x^d.
func foldPair(d int) [2]uint64 {
	return [2]uint64{
		bits.Reverse64(uint64(xPowMod(d + 63))),
		bits.Reverse64(uint64(xPowMod(d - 1))),
	}
}

// TestFoldConstants checks foldK against foldPair, and prints the table
// to paste when they differ.
func TestFoldConstants(t *testing.T) {
	var want [6]uint64
	for i, d := range []int{2048, 512, 128} {
		p := foldPair(d)
		want[2*i], want[2*i+1] = p[0], p[1]
	}
	if foldK != want {
		s := "var foldK = [6]uint64{\n"
		for i, d := range []int{2048, 512, 128} {
			s += fmt.Sprintf("\t%#016x, %#016x, // d = %d\n", want[2*i], want[2*i+1], d)
		}
		t.Errorf("foldK is not what the polynomial gives; it should read:\n%s}", s)
	}
}

// TestXPowMod checks the generator against hash/crc32 itself: the CRC
// register after a message with a single 1 followed by zeros is that
// power of x times x^32, modulo P.
func TestXPowMod(t *testing.T) {
	for _, n := range []int{0, 1, 7, 31, 32, 33, 100, 1000} {
		// The message: 1 followed by n zero bits, then padded with zero bits
		// to whole bytes; with the register starting at 0 (not inverted).
		nbits := n + 1
		pad := (8 - nbits%8) % 8
		msg := make([]byte, (nbits+pad)/8)
		msg[0] = 1 // first bit in the reflected order is bit 0 of byte 0
		// hash/crc32 inverts the register before and after; undo that so
		// the register starts and ends raw.
		raw := ^crc32.Update(^uint32(0), crc32.MakeTable(crc32.Castagnoli), msg)
		want := bits.Reverse32(xPowMod(n + pad + 32))
		if raw != want {
			t.Errorf("x^%d: register %#08x, generator %#08x", n+pad+32, raw, want)
		}
	}
}
