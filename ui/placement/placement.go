// Package placement decides where the window opens and how large: inside
// the work area of the screen it opens on, at the size it was left at.
package placement

import (
	"image"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
)

// Where and how large the window opens. It opens inside the screen's work
// area (the screen less the desktop's panels and task bar) at every scale,
// centred: at a first start it takes a good share of that area; later it
// has the size it had when it closed, made smaller where the screen or the
// scale changed since.

// Where the window's size is kept from one start to the next.
const (
	prefWidth  = "window.width"
	prefHeight = "window.height"
)

const (
	// screenShare is how much of the work area the window takes at a first start.
	screenShareWide, screenShareHigh = 0.85, 0.9
	// largestFirst is the largest a window opens at a first start, in Fyne
	// units: on a large screen more room would only spread the list out.
	largestFirstWidth, largestFirstHeight = 1440, 900
	// frameRoom is what the window manager's frame and title bar take, in
	// pixels at scale 1.
	frameRoomWide, frameRoomHigh = 16, 48
)

// Screen is a monitor as the window meets it, in pixels.
type Screen struct {
	Whole image.Rectangle // the monitor
	Work  image.Rectangle // the work area: the monitor less the desktop's panels
	Scale float32         // pixels per Fyne unit of a window on it
}

// known reports whether the screen was found at all.
func (s Screen) known() bool { return !s.Whole.Empty() && s.Scale > 0 }

// WindowSize is the size, in Fyne units, of a window that wants wanted
// (zero: a first start) on s: no larger than what, centred on the monitor
// with its frame, stays inside the work area.
func WindowSize(wanted fyne.Size, s Screen) fyne.Size {
	if !s.known() {
		if wanted.IsZero() {
			return fyne.NewSize(960, 640)
		}
		return wanted
	}
	work := s.Work.Intersect(s.Whole)
	if work.Empty() {
		work = s.Whole
	}
	// Centred on the monitor, the window keeps as far from each edge as the
	// widest panel on either side of it.
	left, right := work.Min.X-s.Whole.Min.X, s.Whole.Max.X-work.Max.X
	top, bottom := work.Min.Y-s.Whole.Min.Y, s.Whole.Max.Y-work.Max.Y
	frameW, frameH := float32(frameRoomWide)*s.Scale, float32(frameRoomHigh)*s.Scale
	most := fyne.NewSize(
		(float32(s.Whole.Dx()-2*max(left, right))-frameW)/s.Scale,
		(float32(s.Whole.Dy()-2*max(top, bottom))-frameH)/s.Scale,
	)
	if wanted.IsZero() {
		wanted = fyne.NewSize(
			min(float32(work.Dx())*screenShareWide/s.Scale, largestFirstWidth),
			min(float32(work.Dy())*screenShareHigh/s.Scale, largestFirstHeight),
		)
	}
	return fyne.NewSize(floorUnit(min(wanted.Width, most.Width)), floorUnit(min(wanted.Height, most.Height)))
}

func floorUnit(v float32) float32 { return float32(math.Floor(float64(max(v, 1)))) }

// WindowScale is the scale the toolkit draws a window at: the user's
// FYNE_SCALE times the monitor's own scale (the system's, or the one its
// density calls for).
func WindowScale(getenv func(string) string, monitor float32) float32 {
	user := float32(1)
	if v := getenv("FYNE_SCALE"); v != "" && v != "auto" {
		if f, err := strconv.ParseFloat(v, 32); err == nil && f > 0 {
			user = float32(f)
		}
	}
	if monitor <= 0 {
		monitor = 1
	}
	return float32(math.Round(float64(monitor*user)*10)) / 10
}

// SavedSize is the size the window had when it last closed; zero at a first
// start.
func SavedSize(p fyne.Preferences) fyne.Size {
	s := fyne.NewSize(float32(p.Float(prefWidth)), float32(p.Float(prefHeight)))
	if s.Width < 320 || s.Height < 240 {
		return fyne.Size{}
	}
	return s
}

// SaveSize keeps the window's size s for the next start.
func SaveSize(p fyne.Preferences, s fyne.Size) {
	if s.Width > 0 && s.Height > 0 {
		p.SetFloat(prefWidth, float64(s.Width))
		p.SetFloat(prefHeight, float64(s.Height))
	}
}

// Place sizes w for s, as kept in p, and centres it on its monitor.
func Place(w fyne.Window, p fyne.Preferences, s Screen) {
	w.Resize(WindowSize(SavedSize(p), s))
	if s.known() {
		w.CenterOnScreen()
	}
}
