// Package crc32c computes the CRC-32 with Castagnoli's polynomial (CRC32C,
// the checksum Cloud Storage answers as "crc32c"), the same values as
// hash/crc32 with crc32.Castagnoli, faster on CPUs that can multiply
// without carries over wide registers.
//
// On amd64 with AVX-512 and VPCLMULQDQ the bytes are folded 256 at a time
// by carry-less multiplication, and the CPU's CRC32 instruction finishes the
// last sixteen. Short inputs, other CPUs and other architectures use
// hash/crc32.
package crc32c

import (
	"hash"
	"hash/crc32"
)

// Size is the size of a CRC32C in bytes.
const Size = 4

var table = crc32.MakeTable(crc32.Castagnoli)

// Update returns the CRC32C of crc's bytes followed by p, where crc is
// the CRC32C of what came before (0 for nothing), as crc32.Update does
// with the Castagnoli table.
func Update(crc uint32, p []byte) uint32 {
	return update(crc, p)
}

// Checksum returns the CRC32C of p.
func Checksum(p []byte) uint32 { return update(0, p) }

// New returns a hash.Hash32 computing the CRC32C; its Sum appends the
// value big-endian, as hash/crc32's does.
func New() hash.Hash32 { return new(digest) }

type digest struct{ crc uint32 }

func (d *digest) Write(p []byte) (int, error) {
	d.crc = update(d.crc, p)
	return len(p), nil
}

func (d *digest) Sum32() uint32  { return d.crc }
func (d *digest) Reset()         { d.crc = 0 }
func (d *digest) Size() int      { return Size }
func (d *digest) BlockSize() int { return 1 }

func (d *digest) Sum(in []byte) []byte {
	s := d.crc
	return append(in, byte(s>>24), byte(s>>16), byte(s>>8), byte(s))
}

// generic is hash/crc32's CRC32C, which uses the CPU's CRC32 instruction
// where it has one.
func generic(crc uint32, p []byte) uint32 { return crc32.Update(crc, table, p) }
