package media

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"hoist/engine/fact"
	"hoist/engine/media/outlook"
)

// OutlookType is the media type of an Outlook item saved as a file (.msg).
const OutlookType = "application/vnd.ms-outlook"

// maxOutlook is the largest Outlook item Hoist turns into an email: the
// largest email Gmail takes is 150 MB, and the item is read whole.
const maxOutlook = 256 << 20

// outlookLimits bound what one conversion reads.
var outlookLimits = outlook.Limits{Read: maxOutlook, Depth: 8}

// isOutlook reports whether a file is an Outlook item by its name or what
// its start says.
func isOutlook(name string, head []byte, detected string) bool {
	if !outlook.IsCompoundFile(head) {
		return false
	}
	return strings.EqualFold(filepath.Ext(name), ".msg") || detected == OutlookType
}

// IsOutlook reports whether the inspected file is an Outlook item, sent
// to a destination that takes emails as the email it is (AsEmail); a file
// only named like one is too, so that it is refused as an Outlook message
// that cannot be read rather than as a file of another type.
func IsOutlook(info Info) bool {
	if info.Converted() {
		return false
	}
	// An email some program saved with an Outlook name is an email already.
	return info.MIME == OutlookType || (strings.EqualFold(filepath.Ext(info.Name), ".msg") && info.Email == nil)
}

// AsEmail is the Outlook item info describes as the email it is: what a
// destination that takes emails is sent. Its Size is the email's, its
// FileSize the item's; the email is made again, the same, whenever it is
// read (Open). An item that is not an email (a contact, an appointment…),
// or cannot be read, is a Problem matching ErrNotEmail.
func AsEmail(info Info) (Info, error) {
	f, err := os.Open(info.Path)
	if err != nil {
		return info, problemFor(info.Path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return info, problemFor(info.Path, err)
	}
	if err := compareStat(info, fi); err != nil {
		return info, err
	}
	made, err := convertOutlook(f, info)
	if err != nil {
		return info, err
	}
	email, err := parseEmail(made[:min(len(made), headLimit)], len(made) > headLimit)
	if err != nil {
		return info, &Problem{Path: info.Path, code: fact.OutlookDamaged, kind: ErrNotEmail, cause: err}
	}
	out := info
	email.FileSize = info.Size
	out.Size = int64(len(made))
	out.MIME = emailType
	out.Email = email
	return out, nil
}

// convertOutlook makes the email of the Outlook item in f.
func convertOutlook(f io.ReaderAt, info Info) ([]byte, error) {
	if info.onDisk() > maxOutlook {
		return nil, &Problem{Path: info.Path, code: fact.OutlookTooLarge, kind: ErrNotEmail}
	}
	made, err := outlook.Convert(f, info.onDisk(), outlookLimits)
	if err == nil {
		return made, nil
	}
	var notEmail *outlook.NotEmailError
	switch {
	case errors.As(err, &notEmail):
		return nil, &Problem{Path: info.Path, code: outlookKinds[notEmail.Kind], kind: ErrNotEmail, cause: err}
	case errors.Is(err, outlook.ErrTooLarge):
		return nil, &Problem{Path: info.Path, code: fact.OutlookTooLarge, kind: ErrNotEmail, cause: err}
	default:
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, readProblem(info.Path, err)
		}
		return nil, &Problem{Path: info.Path, code: fact.OutlookDamaged, kind: ErrNotEmail, cause: err}
	}
}

// outlookKinds are the facts of Outlook items that are not emails.
var outlookKinds = map[string]fact.Code{
	outlook.KindContact:     fact.OutlookContact,
	outlook.KindAppointment: fact.OutlookAppointment,
	outlook.KindTask:        fact.OutlookTask,
	outlook.KindNote:        fact.OutlookNote,
	outlook.KindJournal:     fact.OutlookJournal,
	outlook.KindOther:       fact.OutlookItem,
}

// readOutlookEmail reads the headers of the email an Outlook item is; nil
// when it is not one.
func readOutlookEmail(f *os.File, path string) (*Email, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, problemFor(path, err)
	}
	made, err := convertOutlook(f, Info{Path: path, Size: fi.Size()})
	if err != nil {
		var p *Problem
		if errors.As(err, &p) && errors.Is(err, ErrNotEmail) {
			return nil, nil
		}
		return nil, err
	}
	email, err := parseEmail(made[:min(len(made), headLimit)], len(made) > headLimit)
	if err != nil {
		return nil, nil
	}
	return email, nil
}

var cfbMagic = []byte{0xD0, 0xCF, 0x11, 0xE0}

func startsCompound(head []byte) bool { return bytes.HasPrefix(head, cfbMagic) }
