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
	c := &compound{sectorSize: 512}
	if dataSize(children) > 6<<20 {
		c.sectorSize = 4096
	}
	c.add(&Node{Name: "Root Entry", Storage: true, Children: children}, 5)
	c.fillMiniStream()

	// Regular sectors: large streams, the mini stream, the mini FAT, the directory.
	for _, e := range c.entries {
		if e.kind == 2 && len(e.node.Data) >= cutoff {
			e.start = c.chain(e.node.Data)
		}
	}
	c.entries[0].start = c.chain(c.mini)
	c.entries[0].size = uint64(len(c.mini))
	var miniFATBytes []byte
	for _, v := range c.miniFAT {
		miniFATBytes = binary.LittleEndian.AppendUint32(miniFATBytes, v)
	}
	for len(miniFATBytes)%c.sectorSize != 0 {
		miniFATBytes = binary.LittleEndian.AppendUint32(miniFATBytes, freeSect)
	}
	miniFATStart := c.chain(miniFATBytes)
	var dir []byte
	for _, e := range c.entries {
		dir = append(dir, dirEntry(e, c.sectorSize == 4096)...)
	}
	for len(dir)%c.sectorSize != 0 {
		dir = append(dir, emptyEntry()...)
	}
	dirStart := c.chain(dir)
	nFAT, fatStart := c.endFAT()

	h := c.header(nFAT, fatStart, dirStart, len(dir)/c.sectorSize)
	le := binary.LittleEndian
	if len(c.miniFAT) > 0 {
		le.PutUint32(h[60:], miniFATStart)
		le.PutUint32(h[64:], uint32(len(miniFATBytes)/c.sectorSize))
	} else {
		le.PutUint32(h[60:], endChain)
	}
	out := h
	for _, s := range c.sectors {
		out = append(out, s...)
	}
	for _, v := range c.fat {
		out = le.AppendUint32(out, v)
	}
	return out
}

// compound is a compound file as it is laid out: its directory, its mini
// stream and mini FAT, its sectors and FAT.
type compound struct {
	sectorSize int
	entries    []*entry
	mini       []byte
	miniFAT    []uint32
	sectors    [][]byte
	fat        []uint32
}

// dataSize is the bytes of every stream under the nodes.
func dataSize(nodes []*Node) int {
	total := 0
	for _, n := range nodes {
		total += len(n.Data) + dataSize(n.Children)
	}
	return total
}

// add puts n and everything under it into the directory, its children as a
// chain to the right (a valid, if unbalanced, tree), and returns n's index.
func (c *compound) add(n *Node, kind byte) uint32 {
	e := &entry{node: n, kind: kind, left: noStream, right: noStream, child: noStream}
	idx := uint32(len(c.entries))
	c.entries = append(c.entries, e)
	if !n.Storage {
		return idx
	}
	kids := append([]*Node(nil), n.Children...)
	sort.Slice(kids, func(i, j int) bool { return less(kids[i].Name, kids[j].Name) })
	var prev *entry
	for _, k := range kids {
		kind := byte(2)
		if k.Storage {
			kind = 1
		}
		ki := c.add(k, kind)
		if prev == nil {
			e.child = ki
		} else {
			prev.right = ki
		}
		prev = c.entries[ki]
	}
	return idx
}

// fillMiniStream puts the small streams in the mini stream, in 64-byte
// blocks, and gives every stream its size.
func (c *compound) fillMiniStream() {
	for _, e := range c.entries {
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
		first := uint32(len(c.miniFAT))
		n := (len(e.node.Data) + miniSize - 1) / miniSize
		for i := 0; i < n; i++ {
			if i == n-1 {
				c.miniFAT = append(c.miniFAT, endChain)
			} else {
				c.miniFAT = append(c.miniFAT, first+uint32(i)+1)
			}
		}
		block := make([]byte, n*miniSize)
		copy(block, e.node.Data)
		c.mini = append(c.mini, block...)
		e.start = first
	}
}

// chain puts data in sectors of its own, chained in the FAT, and returns
// the first.
func (c *compound) chain(data []byte) uint32 {
	if len(data) == 0 {
		return endChain
	}
	size := c.sectorSize
	first := uint32(len(c.sectors))
	n := (len(data) + size - 1) / size
	for i := 0; i < n; i++ {
		s := make([]byte, size)
		copy(s, data[i*size:min(len(data), (i+1)*size)])
		c.sectors = append(c.sectors, s)
		if i == n-1 {
			c.fat = append(c.fat, endChain)
		} else {
			c.fat = append(c.fat, first+uint32(i)+1)
		}
	}
	return first
}

// endFAT puts the FAT itself at the end, in as many sectors as it needs.
func (c *compound) endFAT() (nFAT int, fatStart uint32) {
	nFAT = 1
	for nFAT*c.sectorSize/4 < len(c.sectors)+nFAT {
		nFAT++
	}
	fatStart = uint32(len(c.sectors))
	for i := 0; i < nFAT; i++ {
		c.fat = append(c.fat, fatSect)
	}
	for len(c.fat)%(c.sectorSize/4) != 0 {
		c.fat = append(c.fat, freeSect)
	}
	if nFAT > 109 {
		panic("msgfile: file too large for a header-only DIFAT")
	}
	return nFAT, fatStart
}

// header is the file's first sector, but the mini FAT's place.
func (c *compound) header(nFAT int, fatStart, dirStart uint32, dirSectors int) []byte {
	h := make([]byte, c.sectorSize)
	copy(h, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	le := binary.LittleEndian
	le.PutUint16(h[24:], 0x003E)
	le.PutUint16(h[26:], 3)
	le.PutUint16(h[28:], 0xFFFE)
	le.PutUint16(h[30:], 9)
	if c.sectorSize == 4096 {
		le.PutUint16(h[26:], 4)
		le.PutUint16(h[30:], 12)
		le.PutUint32(h[40:], uint32(dirSectors))
	}
	le.PutUint16(h[32:], 6)
	le.PutUint32(h[44:], uint32(nFAT))
	le.PutUint32(h[48:], dirStart)
	le.PutUint32(h[56:], cutoff)
	le.PutUint32(h[68:], endChain)
	for i := 0; i < 109; i++ {
		v := uint32(freeSect)
		if i < nFAT {
			v = fatStart + uint32(i)
		}
		le.PutUint32(h[76+4*i:], v)
	}
	return h
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
