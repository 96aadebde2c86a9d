//go:build windows && (amd64 || arm64)

package outlookdrag

import (
	"golang.org/x/sys/windows"

	"hoist/internal/ole"
)

// The parts of the Windows API a dragging program uses beyond what both ends
// of a drag share (internal/ole).
var (
	ole32                            = windows.NewLazySystemDLL("ole32.dll")
	procOleInitialize                = ole32.NewProc("OleInitialize")
	procDoDragDrop                   = ole32.NewProc("DoDragDrop")
	procCreateStreamOnHGlobal        = ole32.NewProc("CreateStreamOnHGlobal")
	procCreateILockBytesOnHGlobal    = ole32.NewProc("CreateILockBytesOnHGlobal")
	procStgCreateDocfileOnILockBytes = ole32.NewProc("StgCreateDocfileOnILockBytes")
	procStgOpenStorage               = ole32.NewProc("StgOpenStorage")
	user32                           = windows.NewLazySystemDLL("user32.dll")
	procSetCursorPos                 = user32.NewProc("SetCursorPos")
	kernel32                         = windows.NewLazySystemDLL("kernel32.dll")
	procGlobalAlloc                  = kernel32.NewProc("GlobalAlloc")
	procGlobalLock                   = kernel32.NewProc("GlobalLock")
	procGlobalUnlock                 = kernel32.NewProc("GlobalUnlock")
)

// HRESULTs and flags only a dragging program uses.
const (
	eNotImpl     = 0x80004001
	eOutOfMemory = 0x8007000E
	dvEFormatEtc = 0x80040064
	dvELindex    = 0x80040068
	dvETymed     = 0x80040069

	dragdropSDrop    = 0x00040100
	dragdropSDefault = 0x00040102

	cfUnicodeText = 13

	gmemMoveable = 0x0002
	gmemZeroInit = 0x0040

	stgmRead = 0x00000000
)

// Effects of a drop (DROPEFFECT).
const (
	EffectNone = 0
	EffectCopy = 1
	EffectMove = 2
)

var (
	iidIDataObject = windows.GUID{Data1: 0x0000010e, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}
	iidIDropSource = windows.GUID{Data1: 0x00000121, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}
)

// Formats are the numbers of the named formats Outlook offers.
func Formats() (descriptor, contents uint16) { return ole.Formats() }

// hresult is a failed HRESULT as an error.
type hresult uintptr

func (h hresult) Error() string { return "HRESULT 0x" + ole.Hex32(uint32(h)) }
