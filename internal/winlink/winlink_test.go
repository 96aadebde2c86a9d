package winlink

import (
	"bytes"
	"encoding/binary"
	"testing"
	"unicode/utf16"
)

func TestEncode(t *testing.T) {
	for _, target := range []string{`C:\Program Files\Hoist\Hoist.exe`, `D:\Programme\Höist\Hoist.exe`} {
		data, err := Link{Target: target}.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if got := binary.LittleEndian.Uint32(data); got != 0x4C {
			t.Errorf("header size %#x", got)
		}
		if !bytes.Equal(data[4:20], linkCLSID[:]) {
			t.Errorf("class %x", data[4:20])
		}
		flags := binary.LittleEndian.Uint32(data[20:])
		if flags != hasLinkInfo|hasRelativePath|hasWorkingDir|hasIconLocation|isUnicode {
			t.Errorf("flags %#x", flags)
		}
		info := data[0x4C:]
		size := binary.LittleEndian.Uint32(info)
		// The ANSI path, where the LinkInfo says it is.
		base := info[binary.LittleEndian.Uint32(info[16:]):]
		ansi := string(base[:bytes.IndexByte(base, 0)])
		if target[0] == 'C' && ansi != target {
			t.Errorf("LocalBasePath %q, want %q", ansi, target)
		}
		if got := Target(data); got != target {
			t.Errorf("Target = %q, want %q", got, target)
		}
		// StringData: relative path, working folder, icon; then the terminal block.
		rest := info[size:]
		var strs []string
		for range 3 {
			n := int(binary.LittleEndian.Uint16(rest))
			u := make([]uint16, n)
			for i := range u {
				u[i] = binary.LittleEndian.Uint16(rest[2+2*i:])
			}
			strs = append(strs, string(utf16.Decode(u)))
			rest = rest[2+2*n:]
		}
		dir := target[:len(target)-len(`\Hoist.exe`)]
		if strs[0] != `.\Hoist.exe` || strs[1] != dir || strs[2] != target {
			t.Errorf("string data %q", strs)
		}
		if !bytes.Equal(rest, []byte{0, 0, 0, 0}) {
			t.Errorf("after the strings: %x, want the terminal block", rest)
		}
	}
	if _, err := (Link{Target: `Hoist.exe`}).Encode(); err == nil {
		t.Error("a relative target was accepted")
	}
	if Target([]byte("not a link")) != "" {
		t.Error("Target of a non-link")
	}
}
