//go:build !wasm && !js && !android && !ios

package placement

import (
	"image"
	"runtime"

	"github.com/go-gl/glfw/v3.3/glfw"
)

// PrimaryScreen is the primary monitor, its work area and the scale a
// window on it is drawn at, or an unknown screen. It runs on the main
// goroutine, after the first window was made (the toolkit is started then).
func PrimaryScreen(getenv func(string) string) (s Screen) {
	defer func() { _ = recover() }() // no display: the screen stays unknown
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return Screen{}
	}
	v := m.GetVideoMode()
	if v == nil {
		return Screen{}
	}
	x, y := m.GetPos()
	s.Whole = image.Rect(x, y, x+v.Width, y+v.Height)
	wx, wy, ww, wh := m.GetWorkarea()
	s.Work = image.Rect(wx, wy, wx+ww, wy+wh)
	s.Scale = WindowScale(getenv, monitorScale(m, v.Width))
	return s
}

// monitorScale is the scale the toolkit finds for a monitor by itself: the
// system's on Windows, from the screen's density on Linux and the BSDs
// (none on macOS, which scales the window's pixels itself).
func monitorScale(m *glfw.Monitor, widthPx int) float32 {
	switch runtime.GOOS {
	case "darwin":
		return 1
	case "windows":
		xs, _ := m.GetContentScale()
		return xs
	}
	widthMm, _ := m.GetPhysicalSize()
	if widthMm <= 0 {
		return 1
	}
	dpi := float32(widthPx) / (float32(widthMm) / 25.4)
	if dpi > 1000 || dpi < 10 {
		return 1
	}
	return max(dpi/120, 1) // the toolkit's baseline is 120 dots per inch
}
