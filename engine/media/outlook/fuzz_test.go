package outlook

import (
	"bytes"
	"errors"
	"testing"

	"hoist/internal/msgfile"
)

// FuzzConvert: whatever a .msg holds, converting it ends with an email or
// an error this package names, within its limits, never a panic or a hang.
func FuzzConvert(f *testing.F) {
	for _, m := range msgfile.Fixtures() {
		b := m.Bytes()
		f.Add(b)
		f.Add(b[:len(b)*2/3])
	}
	f.Add([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := Convert(bytes.NewReader(b), int64(len(b)), Limits{Read: 4 << 20, Depth: 4})
		var ne *NotEmailError
		switch {
		case err == nil:
			if len(out) == 0 {
				t.Fatal("an empty email")
			}
		case errors.Is(err, ErrDamaged), errors.Is(err, ErrNotOutlook), errors.Is(err, ErrTooLarge), errors.As(err, &ne):
		default:
			t.Fatalf("an error of no known kind: %v", err)
		}
	})
}

// FuzzRTF: any compressed RTF, and any RTF, reads to an end.
func FuzzRTF(f *testing.F) {
	for _, s := range []string{
		`{\rtf1\ansi\ansicpg1256\fromhtml1 {\*\htmltag64 <p>}\htmlrtf x\htmlrtf0 \'c7\u1575?}`,
		`{\rtf1\ansi{\fonttbl{\f0\fcharset177 Arial;}}\f0 \'f9\par\bin3 abc\uc2\u-3913??}`,
		`{{{{{{\*\x}}}}}}\`,
	} {
		f.Add(msgfile.CompressRTF([]byte(s)))
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if rtf, err := decompressRTF(b); err == nil && len(rtf) > maxRTF {
			t.Fatalf("%d bytes of RTF", len(rtf))
		}
		rtfToHTML(b, nil)
		rtfToText(b, nil)
		kindOfRTF(b)
	})
}
