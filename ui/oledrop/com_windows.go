//go:build windows && (amd64 || arm64)

package oledrop

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"

	"hoist/internal/ole"
)

// The parts of OLE a drop target uses beyond what both ends of a drag share
// (internal/ole). Calls through an interface are made with syscall.SyscallN
// on the function its table holds.
var (
	ole32                = windows.NewLazySystemDLL("ole32.dll")
	procOleInitialize    = ole32.NewProc("OleInitialize")
	procRegisterDragDrop = ole32.NewProc("RegisterDragDrop")
	procRevokeDragDrop   = ole32.NewProc("RevokeDragDrop")
	procReleaseStgMedium = ole32.NewProc("ReleaseStgMedium")
	procStgCreateDocfile = ole32.NewProc("StgCreateDocfile")
	shell32              = windows.NewLazySystemDLL("shell32.dll")
	procDragQueryFileW   = shell32.NewProc("DragQueryFileW")
	kernel32             = windows.NewLazySystemDLL("kernel32.dll")
	procGlobalLock       = kernel32.NewProc("GlobalLock")
	procGlobalUnlock     = kernel32.NewProc("GlobalUnlock")
	procGlobalSize       = kernel32.NewProc("GlobalSize")
)

// HRESULTs and flags only a drop target uses.
const (
	eUnexpected = 0x8000FFFF

	dvaspectContent = 1

	dropEffectNone = 0
	dropEffectCopy = 1
)

var iidIDropTarget = windows.GUID{Data1: 0x00000122, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}

// iDataObject is an IDataObject of the program things are dragged from.
type iDataObject struct{ Vtbl *ole.DataObjectVtbl }

func (o *iDataObject) getData(f *ole.FormatEtc, m *ole.StgMedium) uintptr {
	hr, _, _ := syscall.SyscallN(o.Vtbl.GetData, uintptr(unsafe.Pointer(o)), uintptr(unsafe.Pointer(f)), uintptr(unsafe.Pointer(m)))
	return hr
}

func (o *iDataObject) queryGetData(f *ole.FormatEtc) bool {
	hr, _, _ := syscall.SyscallN(o.Vtbl.QueryGetData, uintptr(unsafe.Pointer(o)), uintptr(unsafe.Pointer(f)))
	return hr == ole.SOK
}

// hresultError is a failed HRESULT as an error.
type hresultError struct {
	call string
	hr   uintptr
}

func (e hresultError) Error() string {
	return e.call + ": " + syscall.Errno(e.hr&0xFFFF).Error() + " (HRESULT 0x" + ole.Hex32(uint32(e.hr)) + ")"
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
