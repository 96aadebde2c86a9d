//go:build windows && (amd64 || arm64)

package oledrop

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The parts of OLE a drop target uses. Calls through an interface are
// made with syscall.SyscallN on the function its table holds.
var (
	ole32                 = windows.NewLazySystemDLL("ole32.dll")
	procOleInitialize     = ole32.NewProc("OleInitialize")
	procRegisterDragDrop  = ole32.NewProc("RegisterDragDrop")
	procRevokeDragDrop    = ole32.NewProc("RevokeDragDrop")
	procReleaseStgMedium  = ole32.NewProc("ReleaseStgMedium")
	procStgCreateDocfile  = ole32.NewProc("StgCreateDocfile")
	shell32               = windows.NewLazySystemDLL("shell32.dll")
	procDragQueryFileW    = shell32.NewProc("DragQueryFileW")
	user32                = windows.NewLazySystemDLL("user32.dll")
	procRegisterClipboard = user32.NewProc("RegisterClipboardFormatW")
	kernel32              = windows.NewLazySystemDLL("kernel32.dll")
	procGlobalLock        = kernel32.NewProc("GlobalLock")
	procGlobalUnlock      = kernel32.NewProc("GlobalUnlock")
	procGlobalSize        = kernel32.NewProc("GlobalSize")
)

// HRESULTs and flags of the Windows API.
const (
	sOK          = 0
	sFalse       = 1
	eNoInterface = 0x80004002
	eUnexpected  = 0x8000FFFF

	cfHDrop = 15

	dvaspectContent = 1

	tymedHGlobal  = 1
	tymedIStream  = 4
	tymedIStorage = 8

	dropEffectNone = 0
	dropEffectCopy = 1

	stgmReadWrite      = 0x00000002
	stgmShareExclusive = 0x00000010
	stgmCreate         = 0x00001000

	fdAttributes           = 0x00000004
	fdFileSize             = 0x00000040
	fileAttributeDirectory = 0x00000010
)

var (
	iidIUnknown    = windows.GUID{Data1: 0x00000000, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}
	iidIDropTarget = windows.GUID{Data1: 0x00000122, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}
)

// formatEtc is FORMATETC: which form of which data is asked for.
type formatEtc struct {
	format uint16
	device uintptr // DVTARGETDEVICE*, always nil here
	aspect uint32
	index  int32
	tymed  uint32
}

// stgMedium is STGMEDIUM: the data given, in the form its tymed names. data
// is an HGLOBAL, an IStream* or an IStorage*: memory of the system's, never
// of Go's.
type stgMedium struct {
	tymed      uint32
	data       unsafe.Pointer
	forRelease unsafe.Pointer
}

// fileDescriptor is FILEDESCRIPTORW, one item of a FILEGROUPDESCRIPTORW.
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

// unknownVtbl is IUnknown's table, the start of every interface's.
type unknownVtbl struct {
	QueryInterface, AddRef, Release uintptr
}

// iDataObject is an IDataObject of the program things are dragged from.
type iDataObject struct{ vtbl *dataObjectVtbl }

type dataObjectVtbl struct {
	unknownVtbl
	GetData, GetDataHere, QueryGetData, GetCanonicalFormatEtc, SetData,
	EnumFormatEtc, DAdvise, DUnadvise, EnumDAdvise uintptr
}

func (o *iDataObject) getData(f *formatEtc, m *stgMedium) uintptr {
	hr, _, _ := syscall.SyscallN(o.vtbl.GetData, uintptr(unsafe.Pointer(o)), uintptr(unsafe.Pointer(f)), uintptr(unsafe.Pointer(m)))
	return hr
}

func (o *iDataObject) queryGetData(f *formatEtc) bool {
	hr, _, _ := syscall.SyscallN(o.vtbl.QueryGetData, uintptr(unsafe.Pointer(o)), uintptr(unsafe.Pointer(f)))
	return hr == sOK
}

// iStream is an IStream.
type iStream struct{ vtbl *streamVtbl }

type streamVtbl struct {
	unknownVtbl
	Read, Write, Seek, SetSize, CopyTo, Commit, Revert, LockRegion,
	UnlockRegion, Stat, Clone uintptr
}

// read reads up to len(p) bytes; n == 0 means the end.
func (s *iStream) read(p []byte) (n uint32, hr uintptr) {
	hr, _, _ = syscall.SyscallN(s.vtbl.Read, uintptr(unsafe.Pointer(s)), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), uintptr(unsafe.Pointer(&n)))
	return n, hr
}

// rewind goes to the stream's start; a stream that cannot seek is read from
// where it stands.
func (s *iStream) rewind() {
	var pos uint64
	syscall.SyscallN(s.vtbl.Seek, uintptr(unsafe.Pointer(s)), 0, 0 /* STREAM_SEEK_SET */, uintptr(unsafe.Pointer(&pos)))
}

// iStorage is an IStorage: a compound file, or a part of one.
type iStorage struct{ vtbl *storageVtbl }

type storageVtbl struct {
	unknownVtbl
	CreateStream, OpenStream, CreateStorage, OpenStorage, CopyTo,
	MoveElementTo, Commit, Revert, EnumElements, DestroyElement,
	RenameElement, SetElementTimes, SetClass, SetStateBits, Stat uintptr
}

func (s *iStorage) copyTo(dst *iStorage) uintptr {
	hr, _, _ := syscall.SyscallN(s.vtbl.CopyTo, uintptr(unsafe.Pointer(s)), 0, 0, 0, uintptr(unsafe.Pointer(dst)))
	return hr
}

func (s *iStorage) commit() uintptr {
	hr, _, _ := syscall.SyscallN(s.vtbl.Commit, uintptr(unsafe.Pointer(s)), 0 /* STGC_DEFAULT */)
	return hr
}

func (s *iStorage) release() {
	syscall.SyscallN(s.vtbl.Release, uintptr(unsafe.Pointer(s)))
}

// hresultError is a failed HRESULT as an error.
type hresultError struct {
	call string
	hr   uintptr
}

func (e hresultError) Error() string {
	return e.call + ": " + syscall.Errno(e.hr&0xFFFF).Error() + " (HRESULT 0x" + hex32(uint32(e.hr)) + ")"
}

func hex32(v uint32) string {
	const digits = "0123456789ABCDEF"
	b := make([]byte, 8)
	for i := 7; i >= 0; i-- {
		b[i] = digits[v&0xF]
		v >>= 4
	}
	return string(b)
}

// clipboardFormat is the number of a named clipboard format.
func clipboardFormat(name string) uint16 {
	p, _ := windows.UTF16PtrFromString(name)
	n, _, _ := procRegisterClipboard.Call(uintptr(unsafe.Pointer(p)))
	return uint16(n)
}

// globalMemory is the bytes of an HGLOBAL, locked until unlock is called.
func globalMemory(h unsafe.Pointer) (b []byte, unlock func(), ok bool) {
	size, _, _ := procGlobalSize.Call(uintptr(h))
	p, _, _ := procGlobalLock.Call(uintptr(h))
	if p == 0 {
		return nil, nil, false
	}
	// The memory is the system's, locked in place: not Go's to move or free.
	mem := *(*unsafe.Pointer)(unsafe.Pointer(&p))
	return unsafe.Slice((*byte)(mem), size), func() { procGlobalUnlock.Call(uintptr(h)) }, true
}
