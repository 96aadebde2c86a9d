//go:build amd64 && !purego

package crc32c

import "golang.org/x/sys/cpu"

// useAVX512: the CPU can fold 64 bytes at a time (a test turns it off to
// reach hash/crc32).
//
// There is no path for PCLMULQDQ on 128-bit registers alone: on a CPU with
// hash/crc32's three interleaved CRC32 streams it is not faster (on the
// benchmark machine, folding 64 bytes a turn in four XMM lanes summed
// 11 GB/s where hash/crc32 summed 22 GB/s).
var useAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VPCLMULQDQ &&
	cpu.X86.HasPCLMULQDQ && cpu.X86.HasSSE41 && cpu.X86.HasSSE42

// minAVX512 is the shortest input folded: the first turn takes 256 bytes
// (and at 256 bytes folding already takes two thirds of hash/crc32's time).
const minAVX512 = 256

// foldK holds, for each folding distance d the assembly uses (2048, 512
// and 128 bits), the pair x^(d+63) mod P and x^(d-1) mod P, bit-reflected
// into 64 bits as PCLMULQDQ takes them. TestFoldConstants computes them.
var foldK = [6]uint64{
	0xe9a5d8be00000000, 0x1426a81500000000, // d = 2048
	0x1c19243b00000000, 0x75bba45b00000000, // d = 512
	0x3743f7bd00000000, 0x3171d43000000000, // d = 128
}

// foldAVX512 takes the CRC register (not inverted) before p, whose length
// is a multiple of 16 and at least 256, and returns the register after it.
//
//go:noescape
func foldAVX512(crc uint32, p []byte) uint32

func update(crc uint32, p []byte) uint32 {
	if !useAVX512 || len(p) < minAVX512 {
		return generic(crc, p)
	}
	n := len(p) &^ 15
	crc = ^foldAVX512(^crc, p[:n])
	return generic(crc, p[n:])
}
