package media

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"os"
	"path/filepath"
	"strings"

	"github.com/gabriel-vasile/mimetype"

	"hoist/engine/fact"
)

// headLimit is how much of the start of a file is kept for type detection
// and email headers; headers longer than this are read up to it.
const headLimit = 256 << 10

// fingerprintSpan is how much of each end of a file the fingerprint covers.
const fingerprintSpan = 1 << 20

// Inspect reads what Hoist needs to know about the file at path: size,
// modification time, media type, fingerprint and, for email files, the
// headers. It reads at most the first and last MiB, never the whole file.
//
// A file of zero bytes is not an error here (see Info.Empty and ErrEmpty);
// the destination decides. A file named .eml that is not an email returns
// the Info, with the type its content shows, together with an error wrapping
// ErrNotEmail, so a destination that takes any file can still use it.
func Inspect(path string) (Info, error) {
	abs := absClean(path)
	fi, err := os.Stat(abs)
	if err != nil {
		return Info{}, problemFor(path, err)
	}
	if fi.IsDir() {
		return Info{}, folderProblem(path)
	}
	if !fi.Mode().IsRegular() {
		return Info{}, notRegularProblem(path, fi.Mode())
	}
	f, err := os.Open(abs)
	if err != nil {
		return Info{}, problemFor(path, err)
	}
	defer f.Close()
	// The open file's own stat matches the bytes about to be read.
	if fi, err = f.Stat(); err != nil {
		return Info{}, problemFor(path, err)
	}
	info := Info{
		Path:    abs,
		Name:    filepath.Base(abs),
		Size:    fi.Size(),
		ModTime: fi.ModTime(),
	}
	head, sum, err := fingerprint(f, info.Size, headLimit)
	if err != nil {
		return Info{}, readProblem(path, err)
	}
	info.Fingerprint = sum
	info.MIME = detectType(info.Name, head)
	if isOutlook(info.Name, head, info.MIME) {
		info.MIME = OutlookType // what it is made into depends on where it goes: AsEmail
	}

	if info.Size > 0 && LooksLikeMailbox(info.Name, head) {
		// Its emails are found when it is split (Emails), each sent alone.
		info.MIME = MailboxType
		return info, nil
	}
	isEml := strings.EqualFold(filepath.Ext(info.Name), ".eml")
	if info.Size == 0 && hasContent(f) {
		// Files like those in /proc say 0 bytes but have content: what is
		// sent could not be checked against a size, nor resumed.
		return Info{}, unknownSizeProblem(path)
	}
	if info.Size == 0 {
		if isEml {
			info.MIME = emailType
		}
		return info, nil
	}
	if isEml || info.MIME == emailType {
		email, err := parseEmail(head, int64(len(head)) < info.Size)
		switch {
		case err == nil:
			info.MIME = emailType
			info.Email = email
		case isEml:
			if info.MIME == emailType {
				info.MIME = "text/plain"
			}
			return info, &Problem{Path: path, code: fact.FileNotEmail, kind: ErrNotEmail, cause: err}
		default:
			info.MIME = "text/plain"
		}
	}
	return info, nil
}

// ReadEmail reads the headers at the start of the email file at path,
// without the rest of what Inspect finds out; nil, with no error, when they
// are not an email's headers.
func ReadEmail(path string) (*Email, error) {
	f, err := os.Open(absClean(path))
	if err != nil {
		return nil, problemFor(path, err)
	}
	defer f.Close()
	head := make([]byte, headLimit)
	n, err := io.ReadFull(f, head)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
	case err != nil:
		return nil, readProblem(path, err)
	}
	if startsCompound(head[:n]) {
		return readOutlookEmail(f, path) // an Outlook item: the email it is made into
	}
	email, err := parseEmail(head[:n], n == headLimit)
	if err != nil {
		return nil, nil
	}
	return email, nil
}

// ReadEmailOf reads the headers of the email info describes, a file of
// its own or one email of a mailbox (Info.Part), as ReadEmail does.
func ReadEmailOf(info Info) (*Email, error) {
	if info.Part != nil {
		return emailOf(info)
	}
	return ReadEmail(info.Path)
}

// readProblem is a failure while reading bytes of a file that opened fine.
func readProblem(path string, err error) *Problem {
	if err == io.ErrUnexpectedEOF {
		return &Problem{Path: path, code: fact.FileReadChanged, kind: ErrUnreadable, cause: err}
	}
	return problemFor(path, err)
}

const emailType = "message/rfc822"

// MailboxType is the media type of a mailbox file (.mbox): many emails,
// each sent alone (see Emails).
const MailboxType = "application/mbox"

// Fingerprint is the hex SHA-256 of the size (8 bytes, big-endian), the first
// MiB and the last MiB of the file (the two never overlap; a file of 1 MiB or
// less is hashed once). It is cheap for huge files and still notices edits at
// either end, which is where files change in practice.
func Fingerprint(r io.ReaderAt, size int64) (string, error) {
	_, sum, err := fingerprint(r, size, 0)
	return sum, err
}

// fingerprint also returns up to keep bytes from the start of the file.
func fingerprint(r io.ReaderAt, size int64, keep int) (head []byte, sum string, err error) {
	h := sha256.New()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(size))
	h.Write(n[:])

	first := min(size, fingerprintSpan)
	head = make([]byte, min(int64(keep), first))
	if len(head) > 0 {
		if _, err := r.ReadAt(head, 0); err != nil {
			return nil, "", shortRead(err)
		}
	}
	h.Write(head)
	if err := hashRange(h, r, int64(len(head)), first); err != nil {
		return nil, "", err
	}
	if size > fingerprintSpan {
		if err := hashRange(h, r, max(fingerprintSpan, size-fingerprintSpan), size); err != nil {
			return nil, "", err
		}
	}
	return head, hex.EncodeToString(h.Sum(nil)), nil
}

// hasContent reports whether a file that says it is empty gives bytes when read.
func hasContent(f *os.File) bool {
	var one [1]byte
	n, _ := f.ReadAt(one[:], 0)
	return n > 0
}

// hashRange adds bytes [from, to) of r to w.
func hashRange(w io.Writer, r io.ReaderAt, from, to int64) error {
	if to <= from {
		return nil
	}
	n, err := io.Copy(w, io.NewSectionReader(r, from, to-from))
	if err != nil {
		return err
	}
	if n < to-from {
		return io.ErrUnexpectedEOF
	}
	return nil
}

func shortRead(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// detectType gives the media type from the content, or from the extension
// when the content says nothing more precise than "text" or "bytes". An
// image is known by its magic bytes only: text or unknown bytes named .png
// are not an image.
func detectType(name string, head []byte) string {
	ext := strings.ToLower(filepath.Ext(name))
	if len(head) == 0 {
		return typeByExtension(ext, "application/octet-stream")
	}
	t := baseType(mimetype.Detect(head).String())
	switch t {
	case "application/octet-stream", "text/plain":
		byExt := typeByExtension(ext, t)
		if !strings.HasPrefix(byExt, "image/") || (byExt == "image/svg+xml" && bytes.Contains(head, []byte("<svg"))) {
			return byExt
		}
		return t
	case "text/xml", "application/xml":
		// An SVG with a long preamble sniffs as XML.
		if ext == ".svg" || bytes.Contains(head, []byte("<svg")) {
			return "image/svg+xml"
		}
	}
	return t
}

// extensionTypes are used before the system's table so results do not depend on the machine.
var extensionTypes = map[string]string{
	".eml":  emailType,
	".msg":  OutlookType,
	".txt":  "text/plain",
	".csv":  "text/csv",
	".md":   "text/markdown",
	".htm":  "text/html",
	".html": "text/html",
	".json": "application/json",
	".xml":  "application/xml",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".jpg":  "image/jpeg",
	".jpeg": "image/jpeg",
	".gif":  "image/gif",
	".webp": "image/webp",
	".tif":  "image/tiff",
	".tiff": "image/tiff",
	".bmp":  "image/bmp",
	".heic": "image/heic",
	".heif": "image/heif",
	".avif": "image/avif",
	".mp4":  "video/mp4",
	".mov":  "video/quicktime",
	".webm": "video/webm",
	".mp3":  "audio/mpeg",
	".wav":  "audio/wav",
	".m4a":  "audio/mp4",
	".ogg":  "audio/ogg",
	".pdf":  "application/pdf",
	".zip":  "application/zip",
}

func typeByExtension(ext, fallback string) string {
	if t, ok := extensionTypes[ext]; ok {
		return t
	}
	if t := baseType(mime.TypeByExtension(ext)); t != "" {
		return t
	}
	return fallback
}

// baseType drops parameters such as charset from a media type.
func baseType(t string) string {
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = t[:i]
	}
	return strings.ToLower(strings.TrimSpace(t))
}
