//go:build amd64 && !purego

package crc32c

import "testing"

type path struct {
	name string
	use  func(t testing.TB) // makes Update take this path until the test ends
}

// paths lists AVX-512 and PCLMULQDQ where the CPU has them, and always
// hash/crc32, by turning off the others for the length of a test.
func paths() []path {
	set := func(avx, pcl bool) func(t testing.TB) {
		return func(t testing.TB) {
			oldA, oldP := useAVX512, usePCLMUL
			useAVX512, usePCLMUL = avx, pcl
			t.Cleanup(func() { useAVX512, usePCLMUL = oldA, oldP })
		}
	}
	var ps []path
	if useAVX512 {
		ps = append(ps, path{"avx512", set(true, false)})
	}
	if usePCLMUL {
		ps = append(ps, path{"pclmulqdq", set(false, true)})
	}
	return append(ps, path{"stdlib", set(false, false)})
}
