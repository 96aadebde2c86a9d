//go:build windows && (amd64 || arm64)

package oledrop

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"

	"hoist/internal/ole"
	"hoist/internal/outlookdrag"
)

// These tests run on Windows, and under Wine (scripts/wine-drop-test.sh):
// they hand Hoist's drop target data objects built as Outlook and Explorer
// build theirs (internal/outlookdrag), through the target's own COM table,
// and through OLE's drag and drop onto a window.

// oleThread starts OLE on the test's thread, as the window's thread is.
func oleThread(t *testing.T) {
	t.Helper()
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
	if hr, _, _ := procOleInitialize.Call(0); hr != ole.SOK && hr != ole.SFalse {
		t.Fatalf("OleInitialize: 0x%08X", hr)
	}
}

// drag is OLE's side of a drag over the target and a drop on it: the effect
// each step answers.
func drag(t *testing.T, target *Target, data *outlookdrag.Data, allowed uint32) (enter, over, drop uint32) {
	t.Helper()
	call := func(fn uintptr, args ...uintptr) {
		if hr, _, _ := syscall.SyscallN(fn, append([]uintptr{uintptr(unsafe.Pointer(target))}, args...)...); hr != ole.SOK {
			t.Fatalf("the drop target answered 0x%08X", hr)
		}
	}
	const pt = 100<<32 | 100 // POINTL{100, 100}
	const button = 1         // MK_LBUTTON
	obj := (*iDataObject)(data.Pointer())
	enter, over, drop = allowed, allowed, allowed
	call(target.vtbl.DragEnter, uintptr(unsafe.Pointer(obj)), button, pt, uintptr(unsafe.Pointer(&enter)))
	call(target.vtbl.DragOver, button, pt, uintptr(unsafe.Pointer(&over)))
	call(target.vtbl.Drop, uintptr(unsafe.Pointer(obj)), 0, pt, uintptr(unsafe.Pointer(&drop)))
	return enter, over, drop
}

const dropEffectMove = outlookdrag.EffectMove

// TestOutlookDrop: messages dragged out of Outlook are saved as .msg files
// (the compound file as Outlook holds it, nested storages included), and
// attachments with their bytes, each under a name of its own in one new
// folder under the folder given; the drop is a copy, never a move, and the
// target read each item's contents by its index.
func TestOutlookDrop(t *testing.T) {
	oleThread(t)
	folder := filepath.Join(tempDir(t), "Dropped")
	var got []Drop
	target := New(folder, func(d Drop) { got = append(got, d) })
	data := outlookdrag.Outlook()

	enter, over, drop := drag(t, target, data, dropEffectCopy|dropEffectMove)
	if enter != dropEffectCopy || over != dropEffectCopy || drop != dropEffectCopy {
		t.Errorf("effects: enter %d, over %d, drop %d; want a copy (1) each time", enter, over, drop)
	}
	if len(got) != 1 {
		t.Fatalf("the window heard of %d drops, want 1", len(got))
	}
	d := got[0]
	if len(d.Failed) > 0 {
		t.Errorf("items not saved: %+v", d.Failed)
	}
	var names []string
	for _, p := range d.Paths {
		names = append(names, filepath.Base(p))
		if dir := filepath.Dir(filepath.Dir(p)); !strings.EqualFold(dir, folder) {
			t.Errorf("%s is not in a folder of its own under %s", p, folder)
		}
		if filepath.Dir(p) != filepath.Dir(d.Paths[0]) {
			t.Errorf("one drop's items went to two folders: %s and %s", p, d.Paths[0])
		}
	}
	want := []string{"RE Budget.msg", "RE Budget (2).msg", "تقرير الميزانية.msg", "گزارش.pdf", "photo_ 1.jpg"}
	if !slices.Equal(names, want) {
		t.Fatalf("saved %q, want %q", names, want)
	}
	for i, p := range d.Paths[:3] {
		head, _ := os.ReadFile(p)
		if !bytes.HasPrefix(head, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}) {
			t.Errorf("%s is not a compound file (a .msg): it starts % x", names[i], head[:min(8, len(head))])
		}
		subject, err := outlookdrag.ReadStream(p, outlookdrag.SubjectStream)
		if err != nil || !bytes.Equal(subject, data.Items[i].Body) {
			t.Errorf("%s: its subject reads %q (%v), want %q", names[i], subject, err, data.Items[i].Body)
		}
		att, err := outlookdrag.ReadStream(p, outlookdrag.AttachStorage, outlookdrag.AttachDataStream)
		if err != nil || !bytes.HasPrefix(att, []byte("%PDF")) {
			t.Errorf("%s: its attachment's data reads %q (%v)", names[i], att, err)
		}
	}
	for i, p := range d.Paths[3:] {
		item := data.Items[4+i]
		b, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(b, item.Body) {
			t.Errorf("%s holds %d bytes (%v), want the %d the program gave", names[3+i], len(b), err, len(item.Body))
		}
	}
	for _, f := range data.Asked {
		if _, contents := formats(); f.Format == contents && f.Index < 0 {
			t.Errorf("FileContents was asked for without an index: %+v", f)
		}
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(d.Paths[0]), "*.part"))
	if len(left) > 0 {
		t.Errorf("parts left behind: %q", left)
	}
}

// TestOutlookDropOneFormAtATime: a program that answers FileContents only
// when asked for one form at a time still gives each item.
func TestOutlookDropOneFormAtATime(t *testing.T) {
	oleThread(t)
	var got []Drop
	target := New(tempDir(t), func(d Drop) { got = append(got, d) })
	data := outlookdrag.Outlook()
	data.OneFormAtATime = true
	if _, _, drop := drag(t, target, data, dropEffectCopy); drop != dropEffectCopy {
		t.Errorf("the drop's effect is %d, want a copy", drop)
	}
	if len(got) != 1 || len(got[0].Paths) != 5 || len(got[0].Failed) != 0 {
		t.Fatalf("drops heard: %+v", got)
	}
}

// TestExplorerDrop: ordinary files (CF_HDROP), as Windows Explorer drags
// them, still reach the window as their own paths, with nothing saved.
func TestExplorerDrop(t *testing.T) {
	oleThread(t)
	dir := tempDir(t)
	paths := []string{filepath.Join(dir, "a.eml"), filepath.Join(dir, "صورة.png")}
	for _, p := range paths {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	folder := filepath.Join(dir, "Dropped")
	var got []Drop
	target := New(folder, func(d Drop) { got = append(got, d) })
	data := outlookdrag.New()
	data.Files = paths
	if enter, _, drop := drag(t, target, data, dropEffectCopy|dropEffectMove); enter != dropEffectCopy || drop != dropEffectCopy {
		t.Errorf("effects: enter %d, drop %d; want a copy", enter, drop)
	}
	if len(got) != 1 || !slices.Equal(got[0].Paths, paths) {
		t.Fatalf("drops heard: %+v, want the paths %q", got, paths)
	}
	if _, err := os.Stat(folder); !os.IsNotExist(err) {
		t.Errorf("a drop of files saved something in %s (%v)", folder, err)
	}
}

// TestRefusedDrags: a web address is not taken (the drag shows it will not
// be), nor is a drag that may only move what it carries.
func TestRefusedDrags(t *testing.T) {
	oleThread(t)
	var got []Drop
	target := New(tempDir(t), func(d Drop) { got = append(got, d) })
	text := outlookdrag.New()
	text.Text = true
	if enter, over, drop := drag(t, target, text, dropEffectCopy|dropEffectMove); enter|over|drop != dropEffectNone {
		t.Errorf("a web address: effects %d, %d, %d; want none", enter, over, drop)
	}
	if enter, _, drop := drag(t, target, outlookdrag.Outlook(), dropEffectMove); enter|drop != dropEffectNone {
		t.Errorf("a drag that may only move: effects %d, %d; want none", enter, drop)
	}
	if len(got) != 0 {
		t.Errorf("the window heard of drops: %+v", got)
	}
}

// TestSavingFails: items that cannot be saved (no room for Hoist's folder:
// a file stands where it would be) are named, with why, and nothing is
// taken.
func TestSavingFails(t *testing.T) {
	oleThread(t)
	file := filepath.Join(tempDir(t), "a file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	blocked := filepath.Join(file, "Dropped")
	var got []Drop
	target := New(blocked, func(d Drop) { got = append(got, d) })
	if _, _, drop := drag(t, target, outlookdrag.Outlook(), dropEffectCopy); drop != dropEffectNone {
		t.Errorf("the drop's effect is %d, want none: nothing was taken", drop)
	}
	if len(got) != 1 || len(got[0].Paths) != 0 || len(got[0].Failed) != 5 || got[0].Failed[0].Name != "RE Budget.msg" || got[0].Failed[0].Err == nil {
		t.Fatalf("drops heard: %+v", got)
	}
}

// TestDescriptorSize: FILEDESCRIPTORW is 592 bytes in Windows' headers.
func TestDescriptorSize(t *testing.T) {
	if n := unsafe.Sizeof(ole.FileDescriptor{}); n != 592 {
		t.Fatalf("FILEDESCRIPTORW is %d bytes here, 592 in Windows", n)
	}
	if n := unsafe.Sizeof(ole.FormatEtc{}); n != 32 {
		t.Fatalf("FORMATETC is %d bytes here, 32 in Windows", n)
	}
	if n := unsafe.Sizeof(ole.StgMedium{}); n != 24 {
		t.Fatalf("STGMEDIUM is %d bytes here, 24 in Windows", n)
	}
}

// tempDir is a new folder removed after the test, file by file: Wine 8
// lacks the call os.RemoveAll (and so t.TempDir) deletes with.
func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "oledrop-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { removeTree(t, dir) })
	return dir
}

func removeTree(t *testing.T, dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() {
			removeTree(t, p)
			continue
		}
		if err := windows.DeleteFile(windows.StringToUTF16Ptr(p)); err != nil {
			t.Errorf("removing %s: %v", p, err)
		}
	}
	if err := windows.RemoveDirectory(windows.StringToUTF16Ptr(dir)); err != nil {
		t.Errorf("removing %s: %v", dir, err)
	}
}
