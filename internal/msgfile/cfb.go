// Package msgfile is for tests only: it writes Outlook items (.msg) as
// Outlook saves them, a compound file (MS-CFB, version 3) holding MAPI
// properties (MS-OXMSG), so that tests need no file from elsewhere.
package msgfile

import (
	"encoding/binary"
	"sort"
	"strings"
	"unicode/utf16"
)

// Node is a storage (with children) or a stream (with data) of a compound file.
type Node struct {
	Name     string
	Data     []byte
	Children []*Node
	Storage  bool
}

// Stream and Storage make nodes.
func Stream(name string, data []byte) *Node { return &Node{Name: name, Data: data} }

func Storage(name string, children ...*Node) *Node {
	return &Node{Name: name, Storage: true, Children: children}
}

const (
	miniSize = 64
	cutoff   = 4096
	endChain = 0xFFFFFFFE
	freeSect = 0xFFFFFFFF
	fatSect  = 0xFFFFFFFD
	noStream = 0xFFFFFFFF
)

type entry struct {
	node               *Node
	kind               byte // 1 storage, 2 stream, 5 root
	left, right, child uint32
	start              uint32
	size               uint64
}

// Compound writes a compound file whose root holds children: version 3
// (512-byte sectors), or version 4 (4096-byte sectors) when it is large.
func Compound(children ...*Node) []byte {
	total := 0
	var count func(n *Node)
	count = func(n *Node) {
		total += len(n.Data)
		for _, k := range n.Children {
			count(k)
		}
	}
	for _, k := range children {
		count(k)
	}
	sectorSize := 512
	if total > 6<<20 {
		sectorSize = 4096
	}
	root := &Node{Name: "Root Entry", Storage: true, Children: children}
	var entries []*entry
	var add func(n *Node, kind byte) uint32
	add = func(n *Node, kind byte) uint32 {
		e := &entry{node: n, kind: kind, left: noStream, right: noStream, child: noStream}
		idx := uint32(len(entries))
		entries = append(entries, e)
		if n.Storage {
			kids := append([]*Node(nil), n.Children...)
			sort.Slice(kids, func(i, j int) bool { return less(kids[i].Name, kids[j].Name) })
			// A chain to the right: a valid (if unbalanced) tree.
			var prev *entry
			for _, k := range kids {
				kind := byte(2)
				if k.Storage {
					kind = 1
				}
				ki := add(k, kind)
				if prev == nil {
					e.child = ki
				} else {
					prev.right = ki
				}
				prev = entries[ki]
			}
		}
		return idx
	}
	add(root, 5)

	// The mini stream: small streams in 64-byte blocks.
	var mini []byte
	var miniFAT []uint32
	for _, e := range entries {
		if e.kind != 2 {
			continue
		}
		e.size = uint64(len(e.node.Data))
		if len(e.node.Data) == 0 {
			e.start = endChain
			continue
		}
		if len(e.node.Data) >= cutoff {
			continue
		}
		first := uint32(len(miniFAT))
		n := (len(e.node.Data) + miniSize - 1) / miniSize
		for i := 0; i < n; i++ {
			if i == n-1 {
				miniFAT = append(miniFAT, endChain)
			} else {
				miniFAT = append(miniFAT, first+uint32(i)+1)
			}
		}
		block := make([]byte, n*miniSize)
		copy(block, e.node.Data)
		mini = append(mini, block...)
		e.start = first
	}

	// Regular sectors: large streams, the mini stream, the mini FAT, the directory.
	var sectors [][]byte
	var fat []uint32
	chain := func(data []byte) uint32 {
		if len(data) == 0 {
			return endChain
		}
		first := uint32(len(sectors))
		n := (len(data) + sectorSize - 1) / sectorSize
		for i := 0; i < n; i++ {
			s := make([]byte, sectorSize)
			copy(s, data[i*sectorSize:min(len(data), (i+1)*sectorSize)])
			sectors = append(sectors, s)
			if i == n-1 {
				fat = append(fat, endChain)
			} else {
				fat = append(fat, first+uint32(i)+1)
			}
		}
		return first
	}
	for _, e := range entries {
		if e.kind == 2 && len(e.node.Data) >= cutoff {
			e.start = chain(e.node.Data)
		}
	}
	entries[0].start = chain(mini)
	entries[0].size = uint64(len(mini))
	var miniFATBytes []byte
	for _, v := range miniFAT {
		miniFATBytes = binary.LittleEndian.AppendUint32(miniFATBytes, v)
	}
	for len(miniFATBytes)%sectorSize != 0 {
		miniFATBytes = binary.LittleEndian.AppendUint32(miniFATBytes, freeSect)
	}
	miniFATStart := chain(miniFATBytes)
	var dir []byte
	for _, e := range entries {
		dir = append(dir, dirEntry(e, sectorSize == 4096)...)
	}
	for len(dir)%sectorSize != 0 {
		dir = append(dir, emptyEntry()...)
	}
	dirStart := chain(dir)

	// The FAT itself, at the end.
	nFAT := 1
	for nFAT*sectorSize/4 < len(sectors)+nFAT {
		nFAT++
	}
	fatStart := uint32(len(sectors))
	for i := 0; i < nFAT; i++ {
		fat = append(fat, fatSect)
	}
	for len(fat)%(sectorSize/4) != 0 {
		fat = append(fat, freeSect)
	}
	if nFAT > 109 {
		panic("msgfile: file too large for a header-only DIFAT")
	}

	h := make([]byte, sectorSize)
	copy(h, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	le := binary.LittleEndian
	le.PutUint16(h[24:], 0x003E)
	le.PutUint16(h[26:], 3)
	le.PutUint16(h[28:], 0xFFFE)
	le.PutUint16(h[30:], 9)
	if sectorSize == 4096 {
		le.PutUint16(h[26:], 4)
		le.PutUint16(h[30:], 12)
		le.PutUint32(h[40:], uint32(len(dir)/sectorSize))
	}
	le.PutUint16(h[32:], 6)
	le.PutUint32(h[44:], uint32(nFAT))
	le.PutUint32(h[48:], dirStart)
	le.PutUint32(h[56:], cutoff)
	if len(miniFAT) > 0 {
		le.PutUint32(h[60:], miniFATStart)
		le.PutUint32(h[64:], uint32(len(miniFATBytes)/sectorSize))
	} else {
		le.PutUint32(h[60:], endChain)
	}
	le.PutUint32(h[68:], endChain)
	for i := 0; i < 109; i++ {
		v := uint32(freeSect)
		if i < nFAT {
			v = fatStart + uint32(i)
		}
		le.PutUint32(h[76+4*i:], v)
	}
	out := h
	for _, s := range sectors {
		out = append(out, s...)
	}
	for _, v := range fat {
		out = le.AppendUint32(out, v)
	}
	return out
}

// less is the compound file's order of names: shorter first, then by upper case.
func less(a, b string) bool {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	if len(ua) != len(ub) {
		return len(ua) < len(ub)
	}
	return strings.ToUpper(a) < strings.ToUpper(b)
}

func dirEntry(e *entry, version4 bool) []byte {
	b := make([]byte, 128)
	name := utf16.Encode([]rune(e.node.Name))
	if len(name) > 31 {
		panic("msgfile: name too long: " + e.node.Name)
	}
	for i, c := range name {
		binary.LittleEndian.PutUint16(b[2*i:], c)
	}
	binary.LittleEndian.PutUint16(b[64:], uint16(2*(len(name)+1)))
	b[66] = e.kind
	b[67] = 1 // black
	binary.LittleEndian.PutUint32(b[68:], e.left)
	binary.LittleEndian.PutUint32(b[72:], e.right)
	binary.LittleEndian.PutUint32(b[76:], e.child)
	start := e.start
	if e.kind == 1 {
		start = 0
	}
	binary.LittleEndian.PutUint32(b[116:], start)
	if version4 {
		binary.LittleEndian.PutUint64(b[120:], e.size)
	} else {
		binary.LittleEndian.PutUint32(b[120:], uint32(e.size))
	}
	return b
}

func emptyEntry() []byte {
	b := make([]byte, 128)
	binary.LittleEndian.PutUint32(b[68:], noStream)
	binary.LittleEndian.PutUint32(b[72:], noStream)
	binary.LittleEndian.PutUint32(b[76:], noStream)
	return b
}
