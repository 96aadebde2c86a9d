//go:build windows && (amd64 || arm64)

package outlookdrag

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The parts of the Windows API a dragging program uses.
var (
	ole32                            = windows.NewLazySystemDLL("ole32.dll")
	procOleInitialize                = ole32.NewProc("OleInitialize")
	procDoDragDrop                   = ole32.NewProc("DoDragDrop")
	procCreateStreamOnHGlobal        = ole32.NewProc("CreateStreamOnHGlobal")
	procCreateILockBytesOnHGlobal    = ole32.NewProc("CreateILockBytesOnHGlobal")
	procStgCreateDocfileOnILockBytes = ole32.NewProc("StgCreateDocfileOnILockBytes")
	procStgOpenStorage               = ole32.NewProc("StgOpenStorage")
	user32                           = windows.NewLazySystemDLL("user32.dll")
	procRegisterClipboard            = user32.NewProc("RegisterClipboardFormatW")
	procSetCursorPos                 = user32.NewProc("SetCursorPos")
	kernel32                         = windows.NewLazySystemDLL("kernel32.dll")
	procGlobalAlloc                  = kernel32.NewProc("GlobalAlloc")
	procGlobalLock                   = kernel32.NewProc("GlobalLock")
	procGlobalUnlock                 = kernel32.NewProc("GlobalUnlock")
)

const (
	sOK          = 0
	sFalse       = 1
	eNoInterface = 0x80004002
	eNotImpl     = 0x80004001
	eOutOfMemory = 0x8007000E
	dvEFormatEtc = 0x80040064
	dvELindex    = 0x80040068
	dvETymed     = 0x80040069

	dragdropSDrop    = 0x00040100
	dragdropSDefault = 0x00040102

	cfUnicodeText = 13
	cfHDrop       = 15

	tymedHGlobal  = 1
	tymedIStream  = 4
	tymedIStorage = 8

	gmemMoveable = 0x0002
	gmemZeroInit = 0x0040

	stgmRead           = 0x00000000
	stgmReadWrite      = 0x00000002
	stgmShareExclusive = 0x00000010
	stgmCreate         = 0x00001000

	fdAttributes           = 0x00000004
	fdFileSize             = 0x00000040
	fileAttributeDirectory = 0x00000010
)

// Effects of a drop (DROPEFFECT).
const (
	EffectNone = 0
	EffectCopy = 1
	EffectMove = 2
)

var (
	iidIUnknown    = windows.GUID{Data1: 0x00000000, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}
	iidIDataObject = windows.GUID{Data1: 0x0000010e, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}
	iidIDropSource = windows.GUID{Data1: 0x00000121, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}
)

// formatEtc is FORMATETC.
type formatEtc struct {
	format uint16
	device uintptr
	aspect uint32
	index  int32
	tymed  uint32
}

// stgMedium is STGMEDIUM.
type stgMedium struct {
	tymed      uint32
	data       unsafe.Pointer
	forRelease unsafe.Pointer
}

// fileDescriptor is FILEDESCRIPTORW.
type fileDescriptor struct {
	flags      uint32
	clsid      windows.GUID
	size       [2]int32
	point      [2]int32
	attributes uint32
	created    windows.Filetime
	accessed   windows.Filetime
	written    windows.Filetime
	sizeHigh   uint32
	sizeLow    uint32
	name       [260]uint16
}

type unknownVtbl struct {
	QueryInterface, AddRef, Release uintptr
}

type dataObjectVtbl struct {
	unknownVtbl
	GetData, GetDataHere, QueryGetData, GetCanonicalFormatEtc, SetData,
	EnumFormatEtc, DAdvise, DUnadvise, EnumDAdvise uintptr
}

type iStream struct{ vtbl *streamVtbl }

type streamVtbl struct {
	unknownVtbl
	Read, Write, Seek, SetSize, CopyTo, Commit, Revert, LockRegion,
	UnlockRegion, Stat, Clone uintptr
}

func (s *iStream) release() { syscall.SyscallN(s.vtbl.Release, uintptr(unsafe.Pointer(s))) }

type iStorage struct{ vtbl *storageVtbl }

type storageVtbl struct {
	unknownVtbl
	CreateStream, OpenStream, CreateStorage, OpenStorage, CopyTo,
	MoveElementTo, Commit, Revert, EnumElements, DestroyElement,
	RenameElement, SetElementTimes, SetClass, SetStateBits, Stat uintptr
}

func (s *iStorage) commit() uintptr {
	hr, _, _ := syscall.SyscallN(s.vtbl.Commit, uintptr(unsafe.Pointer(s)), 0)
	return hr
}

func (s *iStorage) release() { syscall.SyscallN(s.vtbl.Release, uintptr(unsafe.Pointer(s))) }

// Formats are the numbers of the named formats Outlook offers.
func Formats() (descriptor, contents uint16) {
	return clipboardFormat("FileGroupDescriptorW"), clipboardFormat("FileContents")
}

func clipboardFormat(name string) uint16 {
	n, _, _ := procRegisterClipboard.Call(uintptr(unsafe.Pointer(windows.StringToUTF16Ptr(name))))
	return uint16(n)
}

// hresult is a failed HRESULT as an error.
type hresult uintptr

func (h hresult) Error() string { return "HRESULT 0x" + hex32(uint32(h)) }

func hex32(v uint32) string {
	const digits = "0123456789ABCDEF"
	b := make([]byte, 8)
	for i := 7; i >= 0; i-- {
		b[i] = digits[v&0xF]
		v >>= 4
	}
	return string(b)
}
