// Package winlink writes Windows shortcut files (.lnk, the Shell Link
// format of [MS-SHLLINK]) without Windows' COM shell objects, so that Hoist
// can put its "Send to" entry in place for each user of a computer it was
// installed on for everyone. Only what such an entry needs is written: the
// program's path on a local disk, its working folder and its icon.
package winlink

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"unicode/utf16"
)

// The header's flags ([MS-SHLLINK] 2.1.1) this package writes.
const (
	hasLinkInfo     = 0x00000002
	hasRelativePath = 0x00000008
	hasWorkingDir   = 0x00000010
	hasIconLocation = 0x00000040
	isUnicode       = 0x00000080
)

// linkCLSID is the class of every shell link, 00021401-0000-0000-C000-000000000046.
var linkCLSID = [16]byte{0x01, 0x14, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}

// Link is a shortcut to a program on a local disk.
type Link struct {
	Target  string // the program, an absolute path such as C:\Program Files\Hoist\Hoist.exe
	WorkDir string // the folder it starts in; "" for the program's own
	Icon    string // the file holding its icon; "" for the program itself
}

// Encode returns the shortcut file's bytes.
func (l Link) Encode() ([]byte, error) {
	if len(l.Target) < 3 || l.Target[1] != ':' || l.Target[2] != '\\' {
		return nil, errors.New("winlink: the target must be an absolute path on a drive, such as C:\\Program Files\\Hoist\\Hoist.exe")
	}
	dir := l.WorkDir
	if dir == "" {
		dir = l.Target[:strings.LastIndex(l.Target, `\`)]
	}
	icon := l.Icon
	if icon == "" {
		icon = l.Target
	}
	var b bytes.Buffer
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }

	// ShellLinkHeader (2.1): 76 bytes.
	le(uint32(0x4C))
	b.Write(linkCLSID[:])
	le(uint32(hasLinkInfo | hasRelativePath | hasWorkingDir | hasIconLocation | isUnicode))
	le(uint32(0x20))          // FILE_ATTRIBUTE_ARCHIVE, as a program file has
	b.Write(make([]byte, 24)) // creation, access and write times: unknown
	le(uint32(0))             // file size: unknown
	le(int32(0))              // icon index
	le(uint32(1))             // SW_SHOWNORMAL
	b.Write(make([]byte, 12)) // hot key and reserved

	b.Write(linkInfo(l.Target))

	// StringData (2.4), in UTF-16: relative path, working folder, icon.
	for _, s := range []string{`.\` + l.Target[strings.LastIndex(l.Target, `\`)+1:], dir, icon} {
		u := utf16.Encode([]rune(s))
		le(uint16(len(u)))
		le(u)
	}
	le(uint32(0)) // no ExtraData: the terminal block
	return b.Bytes(), nil
}

// linkInfo is the LinkInfo structure (2.3) for a path on a fixed local
// disk, in the system's code page (ASCII here, '?' otherwise) and in UTF-16.
func linkInfo(path string) []byte {
	const headerSize = 0x24 // with the Unicode offsets
	volume := []byte{}
	volume = binary.LittleEndian.AppendUint32(volume, 0x11) // VolumeIDSize
	volume = binary.LittleEndian.AppendUint32(volume, 3)    // DRIVE_FIXED
	volume = binary.LittleEndian.AppendUint32(volume, 0)    // serial number: any
	volume = binary.LittleEndian.AppendUint32(volume, 0x10) // the label follows
	volume = append(volume, 0)                              // an empty label

	ansi := make([]byte, 0, len(path)+1)
	for _, r := range path {
		if r < 0x80 {
			ansi = append(ansi, byte(r))
		} else {
			ansi = append(ansi, '?')
		}
	}
	ansi = append(ansi, 0)
	suffix := []byte{0}
	var wide []byte
	for _, u := range utf16.Encode([]rune(path)) {
		wide = binary.LittleEndian.AppendUint16(wide, u)
	}
	wide = append(wide, 0, 0)
	wideSuffix := []byte{0, 0}

	volumeAt := uint32(headerSize)
	baseAt := volumeAt + uint32(len(volume))
	suffixAt := baseAt + uint32(len(ansi))
	wideAt := suffixAt + uint32(len(suffix))
	wideSuffixAt := wideAt + uint32(len(wide))
	size := wideSuffixAt + uint32(len(wideSuffix))

	out := make([]byte, 0, size)
	for _, v := range []uint32{size, headerSize, 1 /* VolumeIDAndLocalBasePath */, volumeAt, baseAt, 0, suffixAt, wideAt, wideSuffixAt} {
		out = binary.LittleEndian.AppendUint32(out, v)
	}
	out = append(out, volume...)
	out = append(out, ansi...)
	out = append(out, suffix...)
	out = append(out, wide...)
	out = append(out, wideSuffix...)
	return out
}

// Target reads the program a shortcut file written by Encode points to;
// "" when data is no such file.
func Target(data []byte) string {
	if len(data) < 0x4C+0x24 || binary.LittleEndian.Uint32(data) != 0x4C || !bytes.Equal(data[4:20], linkCLSID[:]) {
		return ""
	}
	if binary.LittleEndian.Uint32(data[20:])&hasLinkInfo == 0 || binary.LittleEndian.Uint32(data[20:])&1 != 0 {
		return "" // written by Windows with an item list: not one of ours
	}
	info := data[0x4C:]
	size := binary.LittleEndian.Uint32(info)
	if binary.LittleEndian.Uint32(info[4:]) < 0x24 || int(size) > len(info) {
		return ""
	}
	at := binary.LittleEndian.Uint32(info[28:])
	var u []uint16
	for i := int(at); i+1 < int(size); i += 2 {
		c := binary.LittleEndian.Uint16(info[i:])
		if c == 0 {
			return string(utf16.Decode(u))
		}
		u = append(u, c)
	}
	return ""
}
