//go:build windows && (amd64 || arm64)

package oledrop

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"

	"hoist/internal/outlookdrag"
)

var (
	user32              = windows.NewLazySystemDLL("user32.dll")
	procCreateWindowExW = user32.NewProc("CreateWindowExW")
	procDestroyWindow   = user32.NewProc("DestroyWindow")
)

const (
	wsPopup   = 0x80000000
	wsVisible = 0x10000000
	ssNotify  = 0x00000100 // a static control that answers the pointer, as a window does
)

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

	effect, dropped := outlookdrag.Outlook().Drag(200, 150)
	if !dropped {
		t.Fatal("the drag did not end in a drop")
	}
	if effect != outlookdrag.EffectCopy {
		t.Errorf("the program heard the effect %d, want a copy (1): a move would delete the messages from it", effect)
	}
	if len(got) != 1 || len(got[0].Paths) != 5 {
		t.Fatalf("the window heard of %+v, want one drop of 5 items", got)
	}
}
