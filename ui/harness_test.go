package ui

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hoist/auth"
	"hoist/engine"
	"hoist/engine/journal"
	"hoist/ui/destination"
	"hoist/ui/internal/testui"
	"hoist/ui/look"
	"hoist/ui/queuelist"
	"hoist/ui/received"
	"hoist/ui/view"
	"hoist/ui/widgets"
	"hoist/words"
)

// harness is a window driven by a test: the real queue, journal and
// sandbox emulator on loopback, with the window's sampling done by the test
// goroutine (refreshNow), which stands for the UI goroutine.
type harness struct {
	t       *testing.T
	app     fyne.App
	d       *desk
	q       *engine.Queue
	sb      *received.Sandbox
	journal *journal.Journal
	dir     string
	files   string
}

type harnessOptions struct {
	sandboxMode bool
	auth        *auth.Service  // nil: no Google client set up
	queue       engine.Options // Journal, SandboxURL and Logger are filled in
}

func newHarness(t *testing.T, o harnessOptions) *harness {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(look.NewTheme(look.ThemeLight))
	h := &harness{t: t, app: a, dir: t.TempDir(), files: t.TempDir()}
	log := slog.New(slog.DiscardHandler)
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}

	var err error
	h.journal, err = journal.Open(filepath.Join(h.dir, journal.FileName), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.journal.Close() })
	h.sb, err = received.StartSandbox(context.Background(), "", "127.0.0.1:0", log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.sb.Close() })
	presets, err := destination.OpenPresets(h.dir)
	if err != nil {
		t.Fatal(err)
	}
	h.q = h.openQueue(o.queue)
	if o.auth == nil {
		o.auth = &auth.Service{ConfigDir: h.dir}
	}
	h.d = newDesk(context.Background(), a, h.q, deskOptions{
		presets: presets, auth: o.auth, sandbox: h.sb,
		sandboxMode: o.sandboxMode, log: log, journal: h.journal.Path(),
	})
	h.d.win.Resize(fyne.NewSize(960, 640))
	h.layOut() // as the window's first frames do: what wraps takes the height it has at this width
	h.d.thumbs.Start(h.d.frame.Context)
	t.Cleanup(func() {
		h.d.Close()
		h.d.win.Close()
	})
	h.Refresh()
	return h
}

func (h *harness) openQueue(opts engine.Options) *engine.Queue {
	h.t.Helper()
	opts.Journal = h.journal
	opts.SandboxURL = h.sb.Url
	if opts.Parallel == 0 {
		opts.Parallel = 6
	}
	if opts.ChunkSize > 0 && opts.Threshold == 0 {
		opts.Threshold = opts.ChunkSize // bigger files go up in resumable chunks
	}
	q, err := engine.Open(context.Background(), opts)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		q.Close(ctx)
	})
	return q
}

// Refresh samples the queue and shows it, as a tick of the window would.
func (h *harness) Refresh() { h.d.sampling.refreshNow() }

// waitFor refreshes the window until ok holds; the deadline only keeps a
// broken test from hanging.
func (h *harness) waitFor(what string, ok func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		h.Refresh()
		if ok() {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// job returns the queue's view of the job whose file is name.
func (h *harness) job(name string) engine.JobView {
	h.t.Helper()
	for _, v := range h.q.Jobs() {
		if v.Name == name {
			return v
		}
	}
	h.t.Fatalf("no job for %s; jobs: %v", name, jobNames(h.q.Jobs()))
	return engine.JobView{}
}

func jobNames(views []engine.JobView) []string {
	var out []string
	for _, v := range views {
		out = append(out, fmt.Sprintf("%s (%s)", v.Name, v.State))
	}
	return out
}

// state is the state of the job whose file is name, or "" while there is none.
func (h *harness) state(name string) engine.State {
	for _, v := range h.q.Jobs() {
		if v.Name == name {
			return v.State
		}
	}
	return ""
}

// Shown is the state the window shows for the file name, or "" when it shows no row.
func (h *harness) Shown(name string) engine.State {
	snap := h.d.list.Snap
	for i, b := range snap.Rows {
		if snap.View(i).Name == name {
			// The picture's own state, the one its totals and buttons count:
			// a row's whole view is read when it is drawn, and may be newer.
			return b.State
		}
	}
	return ""
}

// row returns the row on screen that shows the file name.
func (h *harness) row(name string) *queuelist.JobRow {
	h.t.Helper()
	i, ok := h.d.list.Snap.Index[h.job(name).ID]
	if !ok {
		h.t.Fatalf("%s has no row", name)
	}
	h.d.list.ScrollTo(i)
	var found *queuelist.JobRow
	walk(h.d.list, func(o fyne.CanvasObject) {
		if r, ok := o.(*queuelist.JobRow); ok && r.Shown != 0 && r.View.Name == name && r.Visible() {
			found = r
		}
	})
	if found == nil {
		h.t.Fatalf("the row of %s is not on screen", name)
	}
	return found
}

// drop drops paths on the window, as the desktop would.
func (h *harness) drop(paths ...string) {
	var uris []fyne.URI
	for _, p := range paths {
		uris = append(uris, storage.NewFileURI(p))
	}
	h.d.takeDrop(uris)
}

// writeFile makes a file in the harness's folder and returns its path.
func (h *harness) writeFile(name string, data []byte) string {
	h.t.Helper()
	p := filepath.Join(h.files, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		h.t.Fatal(err)
	}
	return p
}

// pngBytes draws a small picture in one colour.
func pngBytes(t *testing.T, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func emailBytes(from, subject string) []byte {
	return []byte("From: " + from + "\r\nTo: office@example.com\r\nSubject: " + subject +
		"\r\nDate: Mon, 02 Feb 2026 10:00:00 +0000\r\nMessage-ID: <" + strings.ReplaceAll(subject, " ", ".") +
		"@example.com>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\nHello.\r\n")
}

// pattern is n bytes that are not all alike, so a misplaced chunk shows.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

// walk visits o and everything inside it.
var walk = testui.Walk

// button finds a visible button with this text in the window or its dialogs.
func (h *harness) button(text string) *widget.Button {
	h.t.Helper()
	found := h.findButton(text)
	if found == nil {
		h.t.Fatalf("no button %q on screen", text)
	}
	return found
}

// findButton is button without failing: nil when there is none.
func (h *harness) findButton(text string) *widget.Button {
	var found *widget.Button
	look := func(o fyne.CanvasObject) {
		walk(o, func(o fyne.CanvasObject) {
			if b, ok := asButton(o); ok && b.Text == text && b.Visible() {
				found = b
			}
		})
	}
	look(h.d.win.Canvas().Content())
	for _, o := range h.d.win.Canvas().Overlays().List() {
		look(o)
	}
	return found
}

// asButton is o as the toolkit's button, which every button of the window
// (pushButton, rowButton) is inside.
func asButton(o any) (*widget.Button, bool) {
	switch b := o.(type) {
	case *widget.Button:
		return b, true
	case *widgets.Button:
		return &b.Button, true
	case *widgets.RowButton:
		return &b.Button, true
	}
	return nil, false
}

// tabTo presses Tab, at most presses times, until the focus is on the
// button that says text, and returns it; nil if Tab never reaches it.
func (h *harness) tabTo(text string, presses int) *widget.Button {
	c := h.d.win.Canvas()
	for range presses {
		c.FocusNext()
		if b, ok := asButton(c.Focused()); ok && b.Text == text {
			return b
		}
	}
	return nil
}

// Speak makes the window speak code for one test.
func Speak(t *testing.T, code string) {
	t.Helper()
	before := view.Speech.Load()
	view.Speech.Store(words.New(code))
	widgets.SetRightToLeft(words.New(code).RTL())
	t.Cleanup(func() {
		view.Speech.Store(before)
		widgets.SetRightToLeft(view.Speaking().RTL())
	})
}
