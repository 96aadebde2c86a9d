package outlook

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// rtfPrebuf is the dictionary every compressed RTF starts from (MS-OXRTFCP 3.1.3.1).
const rtfPrebuf = "{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss \\fmodern \\fscript \\fdecor MS Sans SerifSymbolArialTimes New RomanCourier{\\colortbl\\red0\\green0\\blue0\r\n\\par \\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx"

const (
	compressed   = 0x75465a4c // "LZFu"
	uncompressed = 0x414c454d // "MELA"
)

// maxRTF bounds what a compressed RTF may unpack to, whatever its header claims.
const maxRTF = 64 << 20

var errRTF = errors.New("the message's formatted text (compressed RTF) is damaged")

// crcTable is the CRC-32 table of MS-OXRTFCP 3.1.3.2 (the usual polynomial,
// without the usual inversions).
var crcTable = func() (t [256]uint32) {
	for i := range t {
		c := uint32(i)
		for range 8 {
			if c&1 != 0 {
				c = 0xEDB88320 ^ (c >> 1)
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return t
}()

func rtfCRC(b []byte) uint32 {
	var crc uint32
	for _, x := range b {
		crc = crcTable[byte(crc)^x] ^ (crc >> 8)
	}
	return crc
}

// decompressRTF unpacks PidTagRtfCompressed.
func decompressRTF(b []byte) ([]byte, error) {
	if len(b) < 16 {
		return nil, fmt.Errorf("%w: %d bytes", errRTF, len(b))
	}
	compSize := binary.LittleEndian.Uint32(b[0:])
	rawSize := binary.LittleEndian.Uint32(b[4:])
	kind := binary.LittleEndian.Uint32(b[8:])
	crc := binary.LittleEndian.Uint32(b[12:])
	data := b[16:]
	if int64(compSize) >= 12 && int64(compSize)-12 < int64(len(data)) {
		data = data[:compSize-12]
	}
	switch kind {
	case uncompressed:
		return data[:min(len(data), int(min(rawSize, maxRTF)))], nil
	case compressed:
	default:
		return nil, fmt.Errorf("%w: unknown kind %#x", errRTF, kind)
	}
	if rtfCRC(data) != crc {
		return nil, fmt.Errorf("%w: its checksum does not match", errRTF)
	}
	var dict [4096]byte
	copy(dict[:], rtfPrebuf)
	w := len(rtfPrebuf)
	limit := int(min(rawSize, maxRTF))
	out := make([]byte, 0, min(limit, 16*len(data)+16))
	for i := 0; i < len(data); {
		control := data[i]
		i++
		for bit := 0; bit < 8 && i < len(data); bit++ {
			if control&(1<<bit) == 0 {
				c := data[i]
				i++
				out = append(out, c)
				dict[w] = c
				w = (w + 1) % 4096
			} else {
				if i+1 >= len(data) {
					return nil, fmt.Errorf("%w: a reference is cut short", errRTF)
				}
				ref := int(data[i])<<8 | int(data[i+1])
				i += 2
				off, n := ref>>4, ref&0xF+2
				if off == w {
					return out, nil // the end
				}
				for k := 0; k < n; k++ {
					c := dict[(off+k)%4096]
					out = append(out, c)
					dict[w] = c
					w = (w + 1) % 4096
				}
			}
			if len(out) > limit {
				return out[:limit], nil
			}
		}
	}
	return out, nil
}
