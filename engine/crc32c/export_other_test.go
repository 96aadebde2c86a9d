//go:build !amd64 || purego

package crc32c

import "testing"

type path struct {
	name string
	use  func(t testing.TB)
}

func paths() []path { return []path{{"stdlib", func(testing.TB) {}}} }
