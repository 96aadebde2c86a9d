package outlook

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf16"

	"golang.org/x/text/encoding"
)

// Property types (MS-OXCDATA 2.11.1).
const (
	typeInt16   = 0x0002
	typeInt32   = 0x0003
	typeBool    = 0x000B
	typeObject  = 0x000D
	typeInt64   = 0x0014
	typeString8 = 0x001E
	typeUnicode = 0x001F
	typeTime    = 0x0040
	typeBinary  = 0x0102
)

// Properties of a message, a recipient and an attachment (MS-OXPROPS).
const (
	propMessageClass     = 0x001A
	propSubject          = 0x0037
	propClientSubmitTime = 0x0039
	propSentRepName      = 0x0042
	propSentRepAddrType  = 0x0064
	propSentRepEmail     = 0x0065
	propTransportHeaders = 0x007D
	propSenderName       = 0x0C1A
	propSenderAddrType   = 0x0C1E
	propSenderEmail      = 0x0C1F
	propRecipientType    = 0x0C15
	propDeliveryTime     = 0x0E06
	propMessageFlags     = 0x0E07
	propBody             = 0x1000
	propRtfCompressed    = 0x1009
	propHTML             = 0x1013
	propMessageID        = 0x1035
	propReferences       = 0x1039
	propInReplyTo        = 0x1042
	propDisplayName      = 0x3001
	propAddrType         = 0x3002
	propEmailAddress     = 0x3003
	propCreationTime     = 0x3007
	propLastModified     = 0x3008
	propAttachData       = 0x3701
	propAttachFilename   = 0x3704
	propAttachMethod     = 0x3705
	propAttachLongName   = 0x3707
	propAttachMimeTag    = 0x370E
	propAttachContentID  = 0x3712
	propAttachFlags      = 0x3714
	propSmtpAddress      = 0x39FE
	propInternetCodepage = 0x3FDE
	propLocaleID         = 0x3FF1
	propMessageCodepage  = 0x3FFD
	propSenderSmtp       = 0x5D01
	propSentRepSmtp      = 0x5D02
	propRecipDisplayName = 0x5FF6
	propAttachmentHidden = 0x7FFE
)

// props is one storage's properties with the code page its 8-bit strings are in.
type props struct {
	s     *storage
	fixed map[uint16][8]byte // fixed-size values, by property id
	types map[uint16]uint16
	cp    encoding.Encoding // for 8-bit strings; nil: not known yet
}

// Sizes of the header of the properties stream (MS-OXMSG 2.4).
const (
	headerTop      = 32
	headerEmbedded = 24
	headerOther    = 8
)

// readProps reads the storage's property stream, whose header is skip bytes.
func readProps(s *storage, skip int) (*props, error) {
	p := &props{s: s, fixed: map[uint16][8]byte{}, types: map[uint16]uint16{}}
	b, err := s.stream("__properties_version1.0")
	if err != nil {
		return nil, err
	}
	if b == nil {
		return nil, fmt.Errorf("%w: no property stream", ErrNotOutlook)
	}
	if len(b) < skip {
		return nil, fmt.Errorf("%w: property stream of %d bytes", ErrDamaged, len(b))
	}
	for rest := b[skip:]; len(rest) >= 16; rest = rest[16:] {
		tag := binary.LittleEndian.Uint32(rest)
		id, typ := uint16(tag>>16), uint16(tag)
		var v [8]byte
		copy(v[:], rest[8:16])
		p.fixed[id] = v
		p.types[id] = typ
	}
	return p, nil
}

func (p *props) int32(id uint16) (int32, bool) {
	v, ok := p.fixed[id]
	if !ok || (p.types[id] != typeInt32 && p.types[id] != typeInt16 && p.types[id] != typeBool) {
		return 0, false
	}
	return int32(binary.LittleEndian.Uint32(v[:4])), true
}

func (p *props) boolean(id uint16) bool {
	v, ok := p.int32(id)
	return ok && v != 0
}

// time reads a FILETIME property as UTC.
func (p *props) time(id uint16) time.Time {
	v, ok := p.fixed[id]
	if !ok || p.types[id] != typeTime {
		return time.Time{}
	}
	ft := binary.LittleEndian.Uint64(v[:])
	if ft == 0 {
		return time.Time{}
	}
	// 100-nanosecond intervals since 1601-01-01.
	const epochDiff = 116444736000000000
	if ft < epochDiff || ft > epochDiff+uint64(300*365*24*3600)*1e7 {
		return time.Time{} // before 1970 or centuries ahead: not a date a mail carries
	}
	ns := (ft - epochDiff) * 100
	return time.Unix(0, int64(ns)).UTC()
}

func substg(id, typ uint16) string { return fmt.Sprintf("__substg1.0_%04X%04X", id, typ) }

// str reads a string property: the Unicode one, else the 8-bit one decoded
// from the message's code page; "" when the storage has neither.
func (p *props) str(id uint16) (string, error) {
	if b, err := p.s.stream(substg(id, typeUnicode)); err != nil || b != nil {
		return utf16String(b), err
	}
	b, err := p.s.stream(substg(id, typeString8))
	if err != nil || b == nil {
		return "", err
	}
	return p.decode8(b), nil
}

// has reports whether the storage holds a string or binary value of the property.
func (p *props) has(id uint16) bool {
	for _, t := range []uint16{typeUnicode, typeString8, typeBinary} {
		if p.s.streams[strings.ToUpper(substg(id, t))] != nil {
			return true
		}
	}
	return false
}

// decode8 decodes an 8-bit string from the code page, cut at its first NUL.
func (p *props) decode8(b []byte) string {
	if i := indexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	enc := p.cp
	if enc == nil {
		enc = fallbackCodepage
	}
	s, err := enc.NewDecoder().Bytes(b)
	if err != nil {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return strings.ToValidUTF8(string(s), "\uFFFD")
}

func (p *props) binary(id uint16) ([]byte, error) { return p.s.stream(substg(id, typeBinary)) }

// utf16String decodes little-endian UTF-16, cut at its first NUL.
func utf16String(b []byte) string {
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		c := binary.LittleEndian.Uint16(b[i:])
		if c == 0 {
			break
		}
		u = append(u, c)
	}
	return strings.ToValidUTF8(string(utf16.Decode(u)), "\uFFFD")
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

func sortStrings(s []string) { sort.Strings(s) }
