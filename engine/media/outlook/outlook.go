// Package outlook turns an Outlook item saved as a file (.msg: a compound
// file, MS-CFB, holding MAPI properties, MS-OXMSG) into the email it is, as
// an RFC 5322 / MIME message, so that Gmail takes it as it takes an .eml.
//
// The conversion is deterministic: the same file gives the same bytes every
// time, so that an upload can be resumed, and looked for after a lost
// answer, by reading the file again.
package outlook

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Kinds of failure, for errors.Is.
var (
	// ErrNotOutlook: the file is not an Outlook item at all (not a compound
	// file, or one without an item's properties).
	ErrNotOutlook = errors.New("not an Outlook item")
	// ErrDamaged: an Outlook item whose parts cannot be read.
	ErrDamaged = errors.New("the Outlook item is damaged")
	// ErrTooLarge: an item whose parts add up to more than Limits allow.
	ErrTooLarge = errors.New("the Outlook item is too large to convert")
)

// NotEmailError is an Outlook item that is not an email: a contact, an
// appointment, a task, a note…
type NotEmailError struct {
	Class string // the item's message class, e.g. "IPM.Contact"
	Kind  string // one of the Kind… constants
}

// What an Outlook item is, when it is not an email.
const (
	KindContact     = "contact"     // IPM.Contact, IPM.DistList
	KindAppointment = "appointment" // IPM.Appointment: a calendar item or meeting
	KindTask        = "task"        // IPM.Task, IPM.TaskRequest
	KindNote        = "note"        // IPM.StickyNote
	KindJournal     = "journal"     // IPM.Activity: a journal entry
	KindOther       = "other"       // any other item that is not a message
)

func (e *NotEmailError) Error() string {
	return fmt.Sprintf("an Outlook %s (%s), not an email", e.Kind, e.Class)
}

// Limits bound what a conversion may read and write.
type Limits struct {
	// Read is the most the item's streams may add up to (a damaged file
	// may claim more than it holds, or the same bytes many times over).
	Read int64
	// Depth is how many messages may be attached inside one another.
	Depth int
}

// DefaultLimits fit the largest email Gmail takes (150 MB) with room.
var DefaultLimits = Limits{Read: 256 << 20, Depth: 8}

// classKind says what an item of this message class is; "" for an email.
func classKind(class string) string {
	c := strings.ToUpper(strings.TrimSpace(class))
	is := func(p string) bool { return c == p || strings.HasPrefix(c, p+".") }
	switch {
	case c == "", c == "IPM", is("IPM.NOTE"), is("IPM.POST"), is("IPM.SCHEDULE.MEETING"),
		strings.HasPrefix(c, "REPORT."), is("IPM.OUTLOOK.RECALL"), is("IPM.RECALL"), is("IPM.SHARING"):
		return ""
	case is("IPM.CONTACT"), is("IPM.DISTLIST"):
		return KindContact
	case is("IPM.APPOINTMENT"):
		return KindAppointment
	case is("IPM.TASK"), is("IPM.TASKREQUEST"):
		return KindTask
	case is("IPM.STICKYNOTE"):
		return KindNote
	case is("IPM.ACTIVITY"):
		return KindJournal
	}
	return KindOther
}

// Convert reads the Outlook item in r (size bytes) and writes the email it
// is. The result is the same for the same bytes.
func Convert(r io.ReaderAt, size int64, lim Limits) ([]byte, error) {
	if lim.Read <= 0 {
		lim = DefaultLimits
	}
	var magic [8]byte
	if _, err := r.ReadAt(magic[:], 0); err != nil || !bytes.Equal(magic[:], cfbMagic) {
		return nil, fmt.Errorf("%w: not a compound file", ErrNotOutlook)
	}
	root, err := openStorage(r, size, lim.Read)
	if err != nil {
		return nil, err
	}
	m, err := readMessage(root, headerTop, lim.Depth)
	if err != nil {
		return nil, err
	}
	if k := classKind(m.class); k != "" {
		return nil, &NotEmailError{Class: m.class, Kind: k}
	}
	return m.render(true), nil
}

// cfbMagic starts every compound file.
var cfbMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// IsCompoundFile reports whether the start of a file is a compound file's
// (an Outlook item is one; so are older Office documents).
func IsCompoundFile(head []byte) bool { return bytes.HasPrefix(head, cfbMagic) }
