//go:build windows && (amd64 || arm64)

// Command dragmail drags two Outlook messages and two attachments onto
// Hoist's open window, as Outlook offers them (internal/outlookdrag: no file
// paths, only virtual files), with OLE's own drag and drop, and says what
// the window answered. The Windows test runs it under Wine against
// Hoist.exe; the window should save the items and queue them.
//
// Usage: dragmail.exe [seconds to wait for the window, default 60]
package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"hoist/internal/outlookdrag"
)

var (
	user32                  = windows.NewLazySystemDLL("user32.dll")
	procFindWindowW         = user32.NewProc("FindWindowW")
	procGetWindowRect       = user32.NewProc("GetWindowRect")
	procSetForegroundWindow = user32.NewProc("SetForegroundWindow")
)

// glfwClass is the window class of every window the toolkit's GLFW makes.
const glfwClass = "GLFW30"

func main() {
	runtime.LockOSThread() // OLE's drag runs on one thread
	wait := 60 * time.Second
	if len(os.Args) > 1 {
		if s, err := strconv.Atoi(os.Args[1]); err == nil {
			wait = time.Duration(s) * time.Second
		}
	}
	if err := drag(wait); err != nil {
		fmt.Fprintf(os.Stderr, "dragmail: FAIL: %v\n", err)
		os.Exit(1)
	}
}

func drag(wait time.Duration) error {
	if err := outlookdrag.Start(); err != nil {
		return fmt.Errorf("OleInitialize: %w", err)
	}
	var hwnd uintptr
	for end := time.Now().Add(wait); hwnd == 0; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(end) {
			return fmt.Errorf("no Hoist window within %v", wait)
		}
		hwnd, _, _ = procFindWindowW.Call(uintptr(unsafe.Pointer(windows.StringToUTF16Ptr(glfwClass))), 0)
	}
	var r struct{ left, top, right, bottom int32 }
	if ok, _, err := procGetWindowRect.Call(hwnd, uintptr(unsafe.Pointer(&r))); ok == 0 {
		return fmt.Errorf("GetWindowRect: %v", err)
	}
	procSetForegroundWindow.Call(hwnd)
	data := outlookdrag.New()
	data.Items = []outlookdrag.Item{
		{Name: "RE Budget.msg", Kind: outlookdrag.Message, Body: outlookdrag.UTF16("RE: Budget")},
		{Name: "تقرير الميزانية.msg", Kind: outlookdrag.Message, Body: outlookdrag.UTF16("تقرير الميزانية")},
		{Name: "گزارش.pdf", Kind: outlookdrag.Stream, Body: []byte("%PDF-1.4 a report")},
		{Name: "photo.jpg", Kind: outlookdrag.Memory, Body: []byte("\xff\xd8\xff\xe0 a picture"), Pad: 64},
	}
	x, y := (r.left+r.right)/2, (r.top+r.bottom)/2
	effect, dropped := data.Drag(x, y)
	if !dropped {
		return fmt.Errorf("the drag onto the window at %d,%d did not end in a drop", x, y)
	}
	if effect != outlookdrag.EffectCopy {
		return fmt.Errorf("the window answered the effect %d, want a copy (1)", effect)
	}
	fmt.Printf("dragmail: ok: the window at %d,%d took 4 items as a copy (asked %d times)\n", x, y, len(data.Asked))
	return nil
}
