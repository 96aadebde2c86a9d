package media

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func picture() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range 8 {
		img.Set(i, i, color.RGBA{0xd9, 0x30, 0x25, 0xff})
	}
	return img
}

func encoded(t *testing.T, enc func(*bytes.Buffer, image.Image) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := enc(&b, picture()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func write(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestInspectType(t *testing.T) {
	pngBytes := encoded(t, func(b *bytes.Buffer, i image.Image) error { return png.Encode(b, i) })
	jpegBytes := encoded(t, func(b *bytes.Buffer, i image.Image) error { return jpeg.Encode(b, i, nil) })
	gifBytes := encoded(t, func(b *bytes.Buffer, i image.Image) error { return gif.Encode(b, i, nil) })
	// Magic numbers followed by filler, as real files begin.
	filler := bytes.Repeat([]byte{0x10, 0x20, 0x30, 0x40}, 64)
	tiffLE := append([]byte("II*\x00\x08\x00\x00\x00"), filler...)
	tiffBE := append([]byte("MM\x00*\x00\x00\x00\x08"), filler...)
	bmp := append([]byte("BM\x46\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00\x00\x00"), filler...)
	webp := append([]byte("RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00"), filler...)
	heic := append([]byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"), filler...)
	mp4 := append([]byte("\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2"), filler...)
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>`)
	svgXML := []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"></svg>`)

	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"logo.png", pngBytes, "image/png"},
		{"photo.jpg", jpegBytes, "image/jpeg"},
		{"anim.gif", gifBytes, "image/gif"},
		{"scan.tiff", tiffLE, "image/tiff"},
		{"scan-mac.tif", tiffBE, "image/tiff"},
		{"old.bmp", bmp, "image/bmp"},
		{"web.webp", webp, "image/webp"},
		{"phone.heic", heic, "image/heic"},
		{"icon.svg", svg, "image/svg+xml"},
		{"drawing.svg", svgXML, "image/svg+xml"},
		{"clip.mp4", mp4, "video/mp4"},
		{"doc.pdf", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n"), "application/pdf"},
		{"page.html", []byte("<!DOCTYPE html><html><body>hi</body></html>"), "text/html"},
		// Content wins over a wrong extension.
		{"really-a-png.jpg", pngBytes, "image/png"},
		// Text says little: the extension decides.
		{"notes.txt", []byte("buy milk\n"), "text/plain"},
		{"table.csv", []byte("name,size\nx,1\n"), "text/csv"},
		{"readme.md", []byte("# Title\n\nsome text\n"), "text/markdown"},
		{"blob.bin", []byte{0x00, 0x01, 0x02, 0x03, 0xfe, 0xff, 0x00, 0x10}, "application/octet-stream"},
		{"noext", []byte("just words"), "text/plain"},
		// An image is known by its magic bytes, not by its name.
		{"fake.png", []byte("not really a picture\n"), "text/plain"},
		{"noise.jpg", []byte{0x00, 0x01, 0x02, 0x03, 0xfe, 0xff, 0x00, 0x10}, "application/octet-stream"},
		{"words.svg", []byte("just words\n"), "text/plain"},
		{"empty.png", nil, "image/png"},
		{"empty", nil, "application/octet-stream"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := write(t, dir, tt.name, tt.data)
			info, err := Inspect(p)
			if err != nil {
				t.Fatal(err)
			}
			if info.MIME != tt.want {
				t.Errorf("MIME = %q, want %q", info.MIME, tt.want)
			}
			if info.Name != tt.name || info.Path != p || info.Size != int64(len(tt.data)) {
				t.Errorf("info = %+v", info)
			}
			if info.Email != nil {
				t.Errorf("Email = %+v for a file that is not an email", info.Email)
			}
			if info.Empty() != (len(tt.data) == 0) {
				t.Errorf("Empty() = %v", info.Empty())
			}
		})
	}
}

func TestInspectErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		path    string
		kind    error
		message string
	}{
		{"missing", filepath.Join(dir, "gone.png"), ErrMissing, "gone.png is no longer there (it may have been moved or deleted)."},
		{"folder", dir, ErrIsFolder, filepath.Base(dir) + " is a folder, not a file."},
		{"under a file", filepath.Join(write(t, dir, "plain.txt", []byte("x")), "inside"), ErrMissing, "inside is no longer there (it may have been moved or deleted)."},
	}
	if special := specialFile(t, dir); special != "" {
		tests = append(tests, struct {
			name    string
			path    string
			kind    error
			message string
		}{"special", special, ErrNotRegular, filepath.Base(special) + " is a named pipe, not a regular file, so it cannot be uploaded."})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Inspect(tt.path)
			if !errors.Is(err, tt.kind) {
				t.Fatalf("err = %v, want %v", err, tt.kind)
			}
			if SayEnglish(err) != tt.message {
				t.Errorf("message = %q, want %q", SayEnglish(err), tt.message)
			}
			var p *Problem
			if !errors.As(err, &p) {
				t.Fatalf("%v is not a *Problem", err)
			}
			if p.Path != tt.path {
				t.Errorf("Problem path = %q, want %q", p.Path, tt.path)
			}
		})
	}
}

// wantFingerprint computes the documented fingerprint the long way.
func wantFingerprint(data []byte) string {
	h := sha256.New()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(data)))
	h.Write(n[:])
	const span = 1 << 20
	h.Write(data[:min(len(data), span)])
	if len(data) > span {
		h.Write(data[max(span, len(data)-span):])
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestFingerprint(t *testing.T) {
	sizes := []int{0, 1, 4096, 1 << 20, 1<<20 + 1, 3<<20 + 17}
	dir := t.TempDir()
	for _, size := range sizes {
		t.Run(FormatSize(int64(size)), func(t *testing.T) {
			data := make([]byte, size)
			for i := range data {
				data[i] = byte(i*7 + i>>11)
			}
			p := write(t, dir, "f.bin", data)
			info, err := Inspect(p)
			if err != nil {
				t.Fatal(err)
			}
			if want := wantFingerprint(data); info.Fingerprint != want {
				t.Errorf("fingerprint = %s, want %s", info.Fingerprint, want)
			}
			direct, err := Fingerprint(bytes.NewReader(data), int64(size))
			if err != nil || direct != info.Fingerprint {
				t.Errorf("Fingerprint() = %s, %v; Inspect gave %s", direct, err, info.Fingerprint)
			}
		})
	}

	t.Run("covers both ends only", func(t *testing.T) {
		data := make([]byte, 3<<20)
		base := wantFingerprint(data)
		middle := bytes.Clone(data)
		middle[3<<19] = 1 // between the first and last MiB
		last := bytes.Clone(data)
		last[len(last)-1] = 1
		first := bytes.Clone(data)
		first[0] = 1
		for name, d := range map[string][]byte{"last": last, "first": first} {
			if got, _ := Fingerprint(bytes.NewReader(d), int64(len(d))); got == base {
				t.Errorf("a change at the %s byte left the fingerprint alone", name)
			}
		}
		if got, _ := Fingerprint(bytes.NewReader(middle), int64(len(middle))); got != base {
			t.Errorf("a change in the middle changed the fingerprint; it is documented to cover the ends only")
		}
	})
}

func TestOpenCheckVerify(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 1<<17) // 2 MiB
	then := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

	setup := func(t *testing.T) (string, Info) {
		t.Helper()
		p := write(t, t.TempDir(), "report.eml.bin", data)
		if err := os.Chtimes(p, then, then); err != nil {
			t.Fatal(err)
		}
		info, err := Inspect(p)
		if err != nil {
			t.Fatal(err)
		}
		return p, info
	}

	tests := []struct {
		name   string
		change func(t *testing.T, path string)
		kinds  []error
		check  string // Check's message; "" means Check passes
		verify string // Verify's message; "" means Verify passes
	}{
		{
			name:   "unchanged",
			change: func(*testing.T, string) {},
		},
		{
			name: "grew",
			change: func(t *testing.T, p string) {
				f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteString("more")
				f.Close()
				os.Chtimes(p, then, then)
			},
			kinds:  []error{errFileChanged},
			check:  "file.changed file=\"report.eml.bin\": size 2097152, now 2097156",
			verify: "file.changed file=\"report.eml.bin\": size 2097152, now 2097156",
		},
		{
			name: "shrank a lot",
			change: func(t *testing.T, p string) {
				os.Truncate(p, 1000)
				os.Chtimes(p, then, then)
			},
			kinds:  []error{errFileChanged},
			check:  "file.changed file=\"report.eml.bin\": size 2097152, now 1000",
			verify: "file.changed file=\"report.eml.bin\": size 2097152, now 1000",
		},
		{
			name: "saved again",
			change: func(t *testing.T, p string) {
				os.Chtimes(p, then, then.Add(time.Second))
			},
			kinds:  []error{errFileChanged},
			check:  "file.changed file=\"report.eml.bin\": saved again",
			verify: "file.changed file=\"report.eml.bin\": saved again",
		},
		{
			name: "edited with the same size and time",
			change: func(t *testing.T, p string) {
				f, err := os.OpenFile(p, os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteAt([]byte("X"), int64(len(data)-1))
				f.Close()
				os.Chtimes(p, then, then)
			},
			kinds:  []error{errFileChanged},
			check:  editedInPlace,
			verify: "file.changed file=\"report.eml.bin\": contents differ",
		},
		{
			name: "replaced",
			change: func(t *testing.T, p string) {
				tmp := p + ".new"
				if err := os.WriteFile(tmp, data, 0o644); err != nil {
					t.Fatal(err)
				}
				os.Chtimes(tmp, then, then)
				if err := os.Rename(tmp, p); err != nil {
					t.Fatal(err)
				}
			},
			kinds: []error{errFileChanged},
			check: "file.changed file=\"report.eml.bin\": replaced by another file",
			// The same bytes under the same name: Verify has nothing to object to.
		},
		{
			name:   "deleted",
			change: func(t *testing.T, p string) { os.Remove(p) },
			kinds:  []error{errFileChanged, ErrMissing},
			check:  "file.missing file=\"report.eml.bin\"",
			verify: "file.missing file=\"report.eml.bin\"",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, info := setup(t)
			f, err := Open(info)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if f.Size() != int64(len(data)) {
				t.Errorf("Size() = %d", f.Size())
			}
			buf := make([]byte, 16)
			if n, err := f.ReadAt(buf, 16); n != 16 || err != nil || string(buf) != "0123456789abcdef" {
				t.Errorf("ReadAt = %d %v %q", n, err, buf)
			}
			tt.change(t, p)

			assert := func(what string, err error, want string) {
				t.Helper()
				if want == "" {
					if err != nil {
						t.Errorf("%s: unexpected error %v", what, err)
					}
					return
				}
				if err == nil {
					t.Fatalf("%s: no error, want %q", what, want)
				}
				// What changed is said in the log; people read the fact's sentence.
				if err.Error() != want {
					t.Errorf("%s: %q, want %q", what, err.Error(), want)
				}
				said := "report.eml.bin changed since it was added, so Hoist stopped rather than mix old and new parts."
				if errors.Is(err, ErrMissing) {
					said = "report.eml.bin is no longer there (it may have been moved or deleted)."
				}
				if got := SayEnglish(err); got != said {
					t.Errorf("%s says %q, want %q", what, got, said)
				}
				for _, k := range tt.kinds {
					if !errors.Is(err, k) {
						t.Errorf("%s: error is not %v", what, k)
					}
				}
			}
			assert("Check", f.Check(), tt.check)
			assert("Verify", Verify(info), tt.verify)
			// Open knows only the inspected size and time: a same-looking replacement opens fine.
			// Nor can it tell a write whose time was put back before it opened the file.
			if tt.check != "" && tt.name != "replaced" && tt.check != editedInPlace {
				if _, err := Open(info); err == nil || err.Error() != tt.check {
					t.Errorf("Open after the change: %v, want %q", err, tt.check)
				}
			}
		})
	}
}
