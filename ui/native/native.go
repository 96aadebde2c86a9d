//go:build !wasm && !js && !android && !ios

// Package native reaches the GLFW window behind a toolkit window, for
// what the toolkit offers no way to do: minimise it and bring it back.
package native

import (
	"reflect"
	"unsafe"

	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// nativeWindow is the GLFW window behind w, or nil where there is none
// (the test driver) or the toolkit keeps it elsewhere. The toolkit offers
// no way to minimise a window or bring it back from the taskbar; GLFW,
// which it draws with, does. Call on the main goroutine.
func nativeWindow(w fyne.Window) (native *glfw.Window) {
	defer func() {
		if recover() != nil {
			native = nil
		}
	}()
	v := reflect.ValueOf(w)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName("viewport")
	if !f.IsValid() || f.Type() != reflect.TypeFor[*glfw.Window]() {
		return nil
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(*glfw.Window)
}

// Iconify minimises w to the taskbar; false when it cannot.
func Iconify(w fyne.Window) bool {
	n := nativeWindow(w)
	if n == nil {
		return false
	}
	n.Iconify()
	return true
}

// Deiconify brings w back from the taskbar when it is minimised there.
func Deiconify(w fyne.Window) {
	if n := nativeWindow(w); n != nil && n.GetAttrib(glfw.Iconified) == glfw.True {
		n.Restore()
	}
}
