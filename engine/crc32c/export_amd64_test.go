//go:build amd64 && !purego

package crc32c

import "testing"

type path struct {
	name string
	use  func(t testing.TB) // makes Update take this path until the test ends
}

// paths lists AVX-512 where the CPU has it, and always hash/crc32, reached
// by turning AVX-512 off for the length of a test.
func paths() []path {
	set := func(avx bool) func(t testing.TB) {
		return func(t testing.TB) {
			old := useAVX512
			useAVX512 = avx
			t.Cleanup(func() { useAVX512 = old })
		}
	}
	var ps []path
	if useAVX512 {
		ps = append(ps, path{"avx512", set(true)})
	}
	return append(ps, path{"stdlib", set(false)})
}
