//go:build windows && (amd64 || arm64)

package oledrop

import (
	"errors"
	"runtime"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"

	"hoist/internal/ole"
)

// Target is an OLE drop target (IDropTarget) for one window. OLE calls it on
// the window's thread, while that thread handles its messages.
type Target struct {
	vtbl *targetVtbl // first: a COM pointer to the Target points to its table
	refs atomic.Int32

	folder string
	took   func(Drop)

	effect uint32 // what the drag under way would do here
	pin    runtime.Pinner
	hwnd   uintptr
}

// New returns a drop target that saves the virtual files of each drop in a
// new folder under folder, and hands each drop to took: on the window's
// thread, before the program they were dragged from hears it is done.
func New(folder string, took func(Drop)) *Target {
	return &Target{vtbl: &theTargetVtbl, folder: folder, took: took}
}

type targetVtbl struct {
	ole.UnknownVtbl
	DragEnter, DragOver, DragLeave, Drop uintptr
}

// theTargetVtbl is every Target's table: callbacks are few and never freed.
var theTargetVtbl = targetVtbl{
	UnknownVtbl: ole.UnknownVtbl{
		QueryInterface: syscall.NewCallback(func(t *Target, iid *windows.GUID, out **Target) uintptr {
			if *iid != ole.IIDIUnknown && *iid != iidIDropTarget {
				*out = nil
				return ole.ENoInterface
			}
			t.refs.Add(1)
			*out = t
			return ole.SOK
		}),
		AddRef:  syscall.NewCallback(func(t *Target) uintptr { return uintptr(t.refs.Add(1)) }),
		Release: syscall.NewCallback(func(t *Target) uintptr { return uintptr(t.refs.Add(-1)) }),
	},
	// The point is a POINTL, 8 bytes passed in one register on 64-bit Windows.
	DragEnter: syscall.NewCallback(func(t *Target, obj *iDataObject, _, _ uintptr, effect *uint32) uintptr {
		t.effect = dropEffectNone
		if offered(obj) != nothing && *effect&dropEffectCopy != 0 {
			// Always a copy: a message moved out of the mail program
			// would be gone from it.
			t.effect = dropEffectCopy
		}
		*effect = t.effect
		return ole.SOK
	}),
	DragOver: syscall.NewCallback(func(t *Target, _, _ uintptr, effect *uint32) uintptr {
		*effect &= t.effect
		return ole.SOK
	}),
	DragLeave: syscall.NewCallback(func(t *Target) uintptr {
		t.effect = dropEffectNone
		return ole.SOK
	}),
	Drop: syscall.NewCallback(func(t *Target, obj *iDataObject, _, _ uintptr, effect *uint32) uintptr {
		t.effect = dropEffectNone
		if *effect&dropEffectCopy == 0 {
			*effect = dropEffectNone
			return ole.SOK
		}
		d := t.read(obj)
		*effect = dropEffectNone
		if len(d.Paths) > 0 {
			*effect = dropEffectCopy
		}
		if len(d.Paths) > 0 || len(d.Failed) > 0 {
			t.took(d)
		}
		return ole.SOK
	}),
}

// ErrNotRegistered: the window could not take drops through OLE (its thread
// is not OLE's, or another drop target holds the window).
var ErrNotRegistered = errors.New("the window cannot take drops through OLE")

// Register makes t the drop target of the window hwnd. Call it on the
// window's thread: OLE is started there, in a single-threaded apartment, as
// drag and drop needs. Once registered, OLE also hands t the ordinary file
// drops the window took by itself before.
func (t *Target) Register(hwnd uintptr) error {
	if hr, _, _ := procOleInitialize.Call(0); hr != ole.SOK && hr != ole.SFalse {
		return errors.Join(ErrNotRegistered, hresultError{"OleInitialize", hr})
	}
	t.pin.Pin(t) // OLE keeps the pointer until Revoke
	if hr, _, _ := procRegisterDragDrop.Call(hwnd, uintptr(unsafe.Pointer(t))); hr != ole.SOK {
		t.pin.Unpin()
		return errors.Join(ErrNotRegistered, hresultError{"RegisterDragDrop", hr})
	}
	t.hwnd = hwnd
	return nil
}

// Revoke ends what Register began, on the same thread.
func (t *Target) Revoke() {
	if t.hwnd == 0 {
		return
	}
	procRevokeDragDrop.Call(t.hwnd)
	t.hwnd = 0
	t.pin.Unpin()
}
