//go:build windows && (amd64 || arm64)

package ole

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	user32                = windows.NewLazySystemDLL("user32.dll")
	procRegisterClipboard = user32.NewProc("RegisterClipboardFormatW")
)

// HRESULTs and flags of the Windows API that both ends use.
const (
	SOK          = 0
	SFalse       = 1
	ENoInterface = 0x80004002

	CFHDrop = 15

	TymedHGlobal  = 1
	TymedIStream  = 4
	TymedIStorage = 8

	STGMReadWrite      = 0x00000002
	STGMShareExclusive = 0x00000010
	STGMCreate         = 0x00001000

	FDAttributes           = 0x00000004
	FDFileSize             = 0x00000040
	FileAttributeDirectory = 0x00000010
)

// IIDIUnknown is IUnknown's interface id, which every COM object answers to.
var IIDIUnknown = windows.GUID{Data1: 0x00000000, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}

// FormatEtc is FORMATETC: which form of which data is asked for.
type FormatEtc struct {
	Format uint16
	Device uintptr // DVTARGETDEVICE*, always nil here
	Aspect uint32
	Index  int32
	Tymed  uint32
}

// StgMedium is STGMEDIUM: the data given, in the form its Tymed names. Data
// is an HGLOBAL, an IStream* or an IStorage*: memory of the system's, never
// of Go's.
type StgMedium struct {
	Tymed      uint32
	Data       unsafe.Pointer
	ForRelease unsafe.Pointer
}

// FileDescriptor is FILEDESCRIPTORW, one item of a FILEGROUPDESCRIPTORW.
type FileDescriptor struct {
	Flags      uint32
	Clsid      windows.GUID
	Size       [2]int32
	Point      [2]int32
	Attributes uint32
	Created    windows.Filetime
	Accessed   windows.Filetime
	Written    windows.Filetime
	SizeHigh   uint32
	SizeLow    uint32
	Name       [260]uint16
}

// UnknownVtbl is IUnknown's table, the start of every interface's.
type UnknownVtbl struct {
	QueryInterface, AddRef, Release uintptr
}

// DataObjectVtbl is IDataObject's table.
type DataObjectVtbl struct {
	UnknownVtbl
	GetData, GetDataHere, QueryGetData, GetCanonicalFormatEtc, SetData,
	EnumFormatEtc, DAdvise, DUnadvise, EnumDAdvise uintptr
}

// Stream is an IStream.
type Stream struct{ Vtbl *StreamVtbl }

// StreamVtbl is IStream's table.
type StreamVtbl struct {
	UnknownVtbl
	Read, Write, Seek, SetSize, CopyTo, Commit, Revert, LockRegion,
	UnlockRegion, Stat, Clone uintptr
}

// Read reads up to len(p) bytes; n == 0 means the end.
func (s *Stream) Read(p []byte) (n uint32, hr uintptr) {
	hr, _, _ = syscall.SyscallN(s.Vtbl.Read, uintptr(unsafe.Pointer(s)), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)), uintptr(unsafe.Pointer(&n)))
	return n, hr
}

// Rewind goes to the stream's start; a stream that cannot seek is read from
// where it stands.
func (s *Stream) Rewind() {
	var pos uint64
	syscall.SyscallN(s.Vtbl.Seek, uintptr(unsafe.Pointer(s)), 0, 0 /* STREAM_SEEK_SET */, uintptr(unsafe.Pointer(&pos)))
}

// Release lets go of the stream.
func (s *Stream) Release() { syscall.SyscallN(s.Vtbl.Release, uintptr(unsafe.Pointer(s))) }

// Storage is an IStorage: a compound file, or a part of one.
type Storage struct{ Vtbl *StorageVtbl }

// StorageVtbl is IStorage's table.
type StorageVtbl struct {
	UnknownVtbl
	CreateStream, OpenStream, CreateStorage, OpenStorage, CopyTo,
	MoveElementTo, Commit, Revert, EnumElements, DestroyElement,
	RenameElement, SetElementTimes, SetClass, SetStateBits, Stat uintptr
}

// CopyTo copies the whole storage into dst.
func (s *Storage) CopyTo(dst *Storage) uintptr {
	hr, _, _ := syscall.SyscallN(s.Vtbl.CopyTo, uintptr(unsafe.Pointer(s)), 0, 0, 0, uintptr(unsafe.Pointer(dst)))
	return hr
}

// Commit writes what was changed.
func (s *Storage) Commit() uintptr {
	hr, _, _ := syscall.SyscallN(s.Vtbl.Commit, uintptr(unsafe.Pointer(s)), 0 /* STGC_DEFAULT */)
	return hr
}

// Release lets go of the storage.
func (s *Storage) Release() { syscall.SyscallN(s.Vtbl.Release, uintptr(unsafe.Pointer(s))) }

// Formats are the numbers of the named formats a mail program offers its
// virtual files in: their names (FileGroupDescriptorW) and each one's
// contents (FileContents).
func Formats() (descriptor, contents uint16) {
	return ClipboardFormat("FileGroupDescriptorW"), ClipboardFormat("FileContents")
}

// ClipboardFormat is the number of a named clipboard format.
func ClipboardFormat(name string) uint16 {
	p, _ := windows.UTF16PtrFromString(name)
	n, _, _ := procRegisterClipboard.Call(uintptr(unsafe.Pointer(p)))
	return uint16(n)
}

// Hex32 writes an HRESULT as Windows' documentation does: eight hex digits.
func Hex32(v uint32) string {
	const digits = "0123456789ABCDEF"
	b := make([]byte, 8)
	for i := 7; i >= 0; i-- {
		b[i] = digits[v&0xF]
		v >>= 4
	}
	return string(b)
}
