//go:build !wasm && !js && !android && !ios

package ui

import "github.com/go-gl/glfw/v3.3/glfw"

// screenPixels is the size of the primary screen in pixels, or zeros when
// it is not known. It runs on the main goroutine, after the first window
// was made (the toolkit is started then).
func screenPixels() (w, h int) {
	defer func() { _ = recover() }() // no display: the size stays unknown
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return 0, 0
	}
	v := m.GetVideoMode()
	if v == nil {
		return 0, 0
	}
	return v.Width, v.Height
}
