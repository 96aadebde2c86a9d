package msgfile

import (
	"encoding/binary"
	"fmt"
	"sort"
	"time"
	"unicode/utf16"

	"golang.org/x/text/encoding"
)

// Property types.
const (
	TypeInt32   = 0x0003
	TypeBool    = 0x000B
	TypeObject  = 0x000D
	TypeString8 = 0x001E
	TypeUnicode = 0x001F
	TypeTime    = 0x0040
	TypeBinary  = 0x0102
)

// Prop is one MAPI property.
type Prop struct {
	ID, Type uint16
	Fixed    uint64 // a fixed-size value
	Data     []byte // a variable-size value, as its stream holds it
}

// Unicode is a string property in UTF-16.
func Unicode(id uint16, s string) Prop {
	var b []byte
	for _, c := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, c)
	}
	return Prop{ID: id, Type: TypeUnicode, Data: b}
}

// String8 is a string property in a code page.
func String8(id uint16, s string, enc encoding.Encoding) Prop {
	b, err := enc.NewEncoder().Bytes([]byte(s))
	if err != nil {
		panic(fmt.Sprintf("msgfile: %q in that code page: %v", s, err))
	}
	return Prop{ID: id, Type: TypeString8, Data: b}
}

// Binary is a binary property.
func Binary(id uint16, b []byte) Prop { return Prop{ID: id, Type: TypeBinary, Data: b} }

// Int32 is a 32-bit integer property.
func Int32(id uint16, v int32) Prop { return Prop{ID: id, Type: TypeInt32, Fixed: uint64(uint32(v))} }

// Bool is a boolean property.
func Bool(id uint16, v bool) Prop {
	p := Prop{ID: id, Type: TypeBool}
	if v {
		p.Fixed = 1
	}
	return p
}

// Time is a FILETIME property.
func Time(id uint16, t time.Time) Prop {
	return Prop{ID: id, Type: TypeTime, Fixed: uint64(t.UnixNano()/100 + 116444736000000000)}
}

// Message is an Outlook item.
type Message struct {
	Props       []Prop
	Recipients  [][]Prop
	Attachments []Attachment
}

// Attachment is an attachment: its properties, and an attached item.
type Attachment struct {
	Props   []Prop
	Message *Message // an attached item (PidTagAttachDataObject)
}

// Bytes writes the item as a .msg file.
func (m *Message) Bytes() []byte {
	kids := m.nodes(32)
	kids = append(kids, Storage("__nameid_version1.0",
		Stream("__substg1.0_00020102", nil),
		Stream("__substg1.0_00030102", nil),
		Stream("__substg1.0_00040102", nil)))
	return Compound(kids...)
}

// nodes are the item's streams and storages; hdr is its property header's size.
func (m *Message) nodes(hdr int) []*Node {
	m.displays()
	head := make([]byte, hdr)
	if hdr >= 24 {
		binary.LittleEndian.PutUint32(head[8:], uint32(len(m.Recipients)))
		binary.LittleEndian.PutUint32(head[12:], uint32(len(m.Attachments)))
		binary.LittleEndian.PutUint32(head[16:], uint32(len(m.Recipients)))
		binary.LittleEndian.PutUint32(head[20:], uint32(len(m.Attachments)))
	}
	nodes := propNodes(head, m.Props)
	for i, r := range m.Recipients {
		nodes = append(nodes, Storage(fmt.Sprintf("__recip_version1.0_#%08X", i), propNodes(make([]byte, 8), r)...))
	}
	for i, a := range m.Attachments {
		kids := propNodes(make([]byte, 8), a.Props)
		if a.Message != nil {
			kids = appendObject(kids, a.Message)
		}
		nodes = append(nodes, Storage(fmt.Sprintf("__attach_version1.0_#%08X", i), kids...))
	}
	return nodes
}

// appendObject adds the attached item's storage, and its entry to the
// attachment's property stream.
func appendObject(kids []*Node, m *Message) []*Node {
	for _, k := range kids {
		if k.Name == "__properties_version1.0" {
			e := make([]byte, 16)
			binary.LittleEndian.PutUint32(e, uint32(0x3701)<<16|TypeObject)
			binary.LittleEndian.PutUint32(e[4:], 6)
			binary.LittleEndian.PutUint32(e[8:], 0xFFFFFFFF)
			k.Data = append(k.Data, e...)
		}
	}
	return append(kids, Storage("__substg1.0_3701000D", m.nodes(24)...))
}

// propNodes are the property stream and the streams of variable-size values.
func propNodes(head []byte, props []Prop) []*Node {
	ps := append([]Prop(nil), props...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].ID < ps[j].ID })
	stream := append([]byte(nil), head...)
	var nodes []*Node
	for _, p := range ps {
		e := make([]byte, 16)
		binary.LittleEndian.PutUint32(e, uint32(p.ID)<<16|uint32(p.Type))
		binary.LittleEndian.PutUint32(e[4:], 6)
		switch p.Type {
		case TypeUnicode, TypeString8, TypeBinary:
			size := len(p.Data)
			if p.Type == TypeUnicode {
				size += 2
			} else if p.Type == TypeString8 {
				size++
			}
			binary.LittleEndian.PutUint32(e[8:], uint32(size))
			nodes = append(nodes, Stream(fmt.Sprintf("__substg1.0_%04X%04X", p.ID, p.Type), p.Data))
		default:
			binary.LittleEndian.PutUint64(e[8:], p.Fixed)
		}
		stream = append(stream, e...)
	}
	return append([]*Node{Stream("__properties_version1.0", stream)}, nodes...)
}

// CompressRTF packs RTF as Outlook keeps it (MS-OXRTFCP), with references
// into its dictionary wherever a run of at least three bytes repeats.
func CompressRTF(rtf []byte) []byte {
	const prebuf = "{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss \\fmodern \\fscript \\fdecor MS Sans SerifSymbolArialTimes New RomanCourier{\\colortbl\\red0\\green0\\blue0\r\n\\par \\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx"
	var dict [4096]byte
	copy(dict[:], prebuf)
	w := len(prebuf)
	filled := len(prebuf)
	var out []byte
	i := 0
	for done := false; !done; {
		ctrlAt := len(out)
		out = append(out, 0)
		var ctrl byte
		for bit := 0; bit < 8; bit++ {
			if i >= len(rtf) {
				// The end: a reference to where the next byte would go.
				ctrl |= 1 << bit
				out = append(out, byte(w>>4), byte(w<<4))
				done = true
				break
			}
			bestOff, bestLen := 0, 0
			for off := 0; off < filled; off++ {
				if off == w {
					continue
				}
				n := 0
				for n < 17 && i+n < len(rtf) && dict[(off+n)%4096] == rtf[i+n] && (off+n)%4096 != w {
					n++
				}
				if n > bestLen {
					bestOff, bestLen = off, n
				}
			}
			if bestLen >= 3 {
				ctrl |= 1 << bit
				out = append(out, byte(bestOff>>4), byte(bestOff<<4|(bestLen-2)))
				for k := 0; k < bestLen; k++ {
					dict[w] = rtf[i+k]
					w = (w + 1) % 4096
				}
				i += bestLen
			} else {
				out = append(out, rtf[i])
				dict[w] = rtf[i]
				w = (w + 1) % 4096
				i++
			}
			filled = min(4096, filled+max(bestLen, 1))
		}
		out[ctrlAt] = ctrl
	}
	crc := crc32(out)
	h := make([]byte, 16)
	binary.LittleEndian.PutUint32(h, uint32(len(out)+12))
	binary.LittleEndian.PutUint32(h[4:], uint32(len(rtf)))
	binary.LittleEndian.PutUint32(h[8:], 0x75465a4c)
	binary.LittleEndian.PutUint32(h[12:], crc)
	return append(h, out...)
}

func crc32(b []byte) uint32 {
	var crc uint32
	for _, x := range b {
		c := uint32(byte(crc) ^ x)
		for range 8 {
			if c&1 != 0 {
				c = 0xEDB88320 ^ (c >> 1)
			} else {
				c >>= 1
			}
		}
		crc = c ^ (crc >> 8)
	}
	return crc
}

// displays adds PidTagDisplayTo, Cc and Bcc (the recipients' names joined
// by "; ", as Outlook keeps them) when the item lacks them.
func (m *Message) displays() {
	have := map[uint16]bool{}
	for _, p := range m.Props {
		have[p.ID] = true
	}
	for kind, id := range map[int32]uint16{1: 0x0E04, 2: 0x0E03, 3: 0x0E02} {
		if have[id] {
			continue
		}
		var joined Prop
		n := 0
		for _, r := range m.Recipients {
			var name *Prop
			k := int32(1)
			for i, p := range r {
				switch p.ID {
				case 0x3001:
					name = &r[i]
				case 0x0C15:
					k = int32(p.Fixed)
				}
			}
			if name == nil || k != kind {
				continue
			}
			if n == 0 {
				joined = Prop{ID: id, Type: name.Type}
			} else if name.Type == TypeUnicode {
				joined.Data = append(joined.Data, ';', 0, ' ', 0)
			} else {
				joined.Data = append(joined.Data, ';', ' ')
			}
			joined.Data = append(joined.Data, name.Data...)
			n++
		}
		if n > 0 {
			m.Props = append(m.Props, joined)
		}
	}
}
