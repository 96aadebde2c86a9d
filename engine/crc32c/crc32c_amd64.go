//go:build amd64 && !purego

package crc32c

import "golang.org/x/sys/cpu"

// Which folding the CPU allows; tests turn them off to reach the others.
var (
	useAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VPCLMULQDQ &&
		cpu.X86.HasPCLMULQDQ && cpu.X86.HasSSE42
	usePCLMUL = cpu.X86.HasPCLMULQDQ && cpu.X86.HasSSE41 && cpu.X86.HasSSE42
)

// Below these lengths hash/crc32's three interleaved CRC32 streams are as
// fast as folding (measured with BenchmarkUpdate's short sizes).
const (
	minAVX512 = 256
	minPCLMUL = 256
)

// foldK holds, for each folding distance d the assembly uses (2048, 512
// and 128 bits), the pair x^(d+63) mod P and x^(d-1) mod P, bit-reflected
// into 64 bits as PCLMULQDQ takes them. TestFoldConstants computes them.
var foldK = [6]uint64{
	0xe9a5d8be00000000, 0x1426a81500000000, // d = 2048
	0x1c19243b00000000, 0x75bba45b00000000, // d = 512
	0x3743f7bd00000000, 0x3171d43000000000, // d = 128
}

// foldAVX512 and foldPCLMUL take the CRC register (not inverted) before p,
// whose length is a multiple of 16 and at least 256 (AVX-512) or 64, and
// return the register after it.
//
//go:noescape
func foldAVX512(crc uint32, p []byte) uint32

//go:noescape
func foldPCLMUL(crc uint32, p []byte) uint32

func update(crc uint32, p []byte) uint32 {
	var fold func(uint32, []byte) uint32
	switch {
	case useAVX512 && len(p) >= minAVX512:
		fold = foldAVX512
	case usePCLMUL && len(p) >= minPCLMUL:
		fold = foldPCLMUL
	default:
		return generic(crc, p)
	}
	n := len(p) &^ 15
	crc = ^fold(^crc, p[:n])
	return generic(crc, p[n:])
}
