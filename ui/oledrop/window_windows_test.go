//go:build windows && (amd64 || arm64)

package oledrop

import (
	"sync/atomic"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	procCreateWindowExW = user32.NewProc("CreateWindowExW")
	procDestroyWindow   = user32.NewProc("DestroyWindow")
	procSetCursorPos    = user32.NewProc("SetCursorPos")
	procDoDragDrop      = ole32.NewProc("DoDragDrop")
)

const (
	dragdropSDrop    = 0x00040100
	dragdropSDefault = 0x00040102
	wsPopup          = 0x80000000
	wsVisible        = 0x10000000
	ssNotify         = 0x00000100 // a static control that answers the pointer, as a window does
)

// dropSource is the dragging program's IDropSource: the button is let go
// once the pointer has been over the window for a few of OLE's turns.
type dropSource struct {
	vtbl  *dropSourceVtbl
	turns atomic.Int32
}

type dropSourceVtbl struct {
	unknownVtbl
	QueryContinueDrag, GiveFeedback uintptr
}

var theDropSourceVtbl = dropSourceVtbl{
	unknownVtbl: unknownVtbl{
		QueryInterface: syscall.NewCallback(func(s *dropSource, iid *windows.GUID, out **dropSource) uintptr {
			iidIDropSource := windows.GUID{Data1: 0x00000121, Data4: [8]byte{0xC0, 0, 0, 0, 0, 0, 0, 0x46}}
			if *iid != iidIUnknown && *iid != iidIDropSource {
				*out = nil
				return eNoInterface
			}
			*out = s
			return sOK
		}),
		AddRef:  syscall.NewCallback(func(*dropSource) uintptr { return 2 }),
		Release: syscall.NewCallback(func(*dropSource) uintptr { return 1 }),
	},
	QueryContinueDrag: syscall.NewCallback(func(s *dropSource, esc, keys uintptr) uintptr {
		if s.turns.Add(1) < 3 {
			return sOK
		}
		return dragdropSDrop
	}),
	GiveFeedback: syscall.NewCallback(func(*dropSource, uintptr) uintptr { return dragdropSDefault }),
}

// TestDragOntoWindow: messages dragged out of a program with OLE's own
// drag and drop (DoDragDrop, as Outlook drags) onto a window registered
// with Register arrive there, saved, and the program hears they were
// copied.
func TestDragOntoWindow(t *testing.T) {
	oleThread(t)
	class := windows.StringToUTF16Ptr("STATIC")
	title := windows.StringToUTF16Ptr("Hoist")
	hwnd, _, err := procCreateWindowExW.Call(0, uintptr(unsafe.Pointer(class)), uintptr(unsafe.Pointer(title)),
		wsPopup|wsVisible|ssNotify, 0, 0, 400, 300, 0, 0, 0, 0)
	if hwnd == 0 {
		t.Fatalf("CreateWindowEx: %v", err)
	}
	defer procDestroyWindow.Call(hwnd)

	var got []Drop
	target := New(tempDir(t), func(d Drop) { got = append(got, d) })
	if err := target.Register(hwnd); err != nil {
		t.Fatal(err)
	}
	defer target.Revoke()
	if err := target.Register(hwnd); err == nil {
		t.Error("a second drop target was registered on the same window")
	}

	procSetCursorPos.Call(200, 150)
	data := outlookDrag()
	source := &dropSource{vtbl: &theDropSourceVtbl}
	var effect uint32
	hr, _, _ := procDoDragDrop.Call(uintptr(unsafe.Pointer(data)), uintptr(unsafe.Pointer(source)),
		dropEffectCopy|dropEffectMove, uintptr(unsafe.Pointer(&effect)))
	if hr != dragdropSDrop {
		t.Fatalf("DoDragDrop: 0x%08X, want DRAGDROP_S_DROP", hr)
	}
	if effect != dropEffectCopy {
		t.Errorf("the program heard the effect %d, want a copy (1): a move would delete the messages from it", effect)
	}
	if len(got) != 1 || len(got[0].Paths) != 5 {
		t.Fatalf("the window heard of %+v, want one drop of 5 items", got)
	}
}
