// Package received runs the built-in sandbox and shows what it received:
// each upload's object, with its size and checksum, beside the queue.
package received

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// SandboxAddr is where the window's built-in sandbox listens: the address
// HOIST_SANDBOX_ADDR names, else this user's own port (own, or when it is
// "" emulator.UserAddr),
// which no other user's Hoist takes, so nobody else's `hoist send --to
// sandbox` uploads into it. Either stays the same from one start to the
// next, so the addresses of unfinished uploads stay valid. When it is
// taken, any free port is used; the same user's command line still finds
// it (emulator.Announce).
func SandboxAddr(getenv func(string) string, own string) string {
	if a := strings.TrimSpace(getenv(emulator.AddrEnv)); a != "" {
		return a
	}
	if own != "" {
		return own
	}
	return emulator.UserAddr()
}

// ReceiptsEnv names a file to which the window appends one line per file the
// sandbox received (name, size and SHA-256, separated by tabs), for scripts
// that check what a session uploaded.
const ReceiptsEnv = "HOIST_SANDBOX_RECEIPTS"

// Sandbox is the built-in emulator the window runs in-process.
type Sandbox struct {
	Server *emulator.Server
	Url    string
	stop   func() error
}

// StartSandbox serves an emulator keeping its files in dir (in memory when
// dir is empty) on addr, or on a free port when addr is taken.
func StartSandbox(ctx context.Context, dir, addr string, log *slog.Logger) (*Sandbox, error) {
	store := emulator.NewMemoryStore()
	if dir != "" {
		st, err := emulator.NewDiskStore(dir)
		if err != nil {
			return nil, fmt.Errorf("opening the sandbox's folder: %w", err)
		}
		store = st
	}
	srv, err := emulator.New(emulator.Options{Store: store, Logger: log})
	if err != nil {
		store.Close()
		return nil, err
	}
	url, stop, err := srv.Start(ctx, addr)
	if err != nil && addr != "127.0.0.1:0" {
		url, stop, err = srv.Start(ctx, "127.0.0.1:0")
	}
	if err != nil {
		srv.Close()
		return nil, err
	}
	return &Sandbox{Server: srv, Url: url, stop: stop}, nil
}

func (s *Sandbox) Close() error {
	return errors.Join(s.stop(), s.Server.Close())
}

// SandboxPanel shows what the sandbox received, as the latest snapshot
// says: name, size and SHA-256, newest first.
type SandboxPanel struct {
	Host    SandboxController
	Shown   *view.Receipts // the snapshot's, as last drawn; nil before the first
	List    *receiptList
	Heading *widget.Label
	Content fyne.CanvasObject
}

func NewSandboxPanel(d SandboxController) *SandboxPanel {
	p := &SandboxPanel{Host: d}
	p.Heading = widget.NewLabelWithStyle(view.Visual(view.Say("ui.sandbox.received")), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	explain := view.Hint(view.Say("ui.sandbox.explain"))
	p.List = newReceiptList(p.Objects, p.copy)
	p.Content = container.New(widgets.RoomyHint{Keep: func() bool { return len(p.Objects()) == 0 }}, p.Heading, explain, p.List)
	return p
}

// copy puts the SHA-256 of what the sandbox received on the clipboard.
func (p *SandboxPanel) copy(obj emulator.Object) {
	p.Host.CopyText(obj.SHA256)
	p.Host.Tell(view.Say("ui.sandbox.copied", "File", view.Isolate(objectName(obj))))
}

// receiptList lists what the sandbox received. It is one stop of Tab: Up,
// Down, Page Up, Page Down, Home and End move an outlined cursor that
// scrolls into view, and Enter, Space or Ctrl+C copy the SHA-256 of its
// row; the copy button in each row is for the mouse.
type receiptList struct {
	widget.List
	Objects func() []emulator.Object
	copy    func(emulator.Object)
	Cursor  int
	focused bool
	rings   map[widget.ListItemID]*canvas.Rectangle // each row's outline, by the row it shows
}

func newReceiptList(objects func() []emulator.Object, copy func(emulator.Object)) *receiptList {
	l := &receiptList{Objects: objects, copy: copy, rings: map[widget.ListItemID]*canvas.Rectangle{}}
	l.Length = func() int { return len(l.Objects()) }
	l.CreateItem = func() fyne.CanvasObject {
		name := widgets.NewLabel("")
		size := widgets.NewWholeLabel("")
		// In the text font: a monospaced one would load three more faces
		// (the theme's, the toolkit's and the system's) for one line of hex.
		sum := widget.NewLabel("")
		sum.Truncation = fyne.TextTruncateEllipsis
		sum.SizeName = theme.SizeNameCaptionText
		copyButton := widgets.NewRowButton("", theme.ContentCopyIcon(), nil)
		copyButton.Importance = widget.LowImportance
		lines := container.NewVBox(widgets.Border(nil, nil, nil, size, name), widgets.Border(nil, nil, nil, copyButton, sum))
		return container.NewStack(lines, widgets.NewFocusRing())
	}
	l.UpdateItem = func(i widget.ListItemID, o fyne.CanvasObject) {
		objs := l.Objects()
		if i < 0 || i >= len(objs) {
			return
		}
		obj := objs[i]
		stack := o.(*fyne.Container)
		box := stack.Objects[0].(*fyne.Container)
		top := box.Objects[0].(*fyne.Container)
		bottom := box.Objects[1].(*fyne.Container)
		top.Objects[0].(*widgets.Label).SetText(objectName(obj))
		top.Objects[1].(*widgets.Label).SetText(view.Speaking().Size(obj.Size))
		bottom.Objects[0].(*widget.Label).SetText(obj.SHA256)
		bottom.Objects[1].(*widgets.RowButton).OnTapped = func() { l.copy(obj) }
		ring := stack.Objects[1].(*canvas.Rectangle)
		for at, r := range l.rings {
			if r == ring {
				delete(l.rings, at)
			}
		}
		l.rings[i] = ring
		l.outline(i, ring)
	}
	l.ExtendBaseWidget(l)
	return l
}

// outline shows the ring of row i while it has the cursor and the list the focus.
func (l *receiptList) outline(i widget.ListItemID, r *canvas.Rectangle) {
	if l.focused && i == l.Cursor {
		r.StrokeColor = widgets.FocusColor(l.Theme())
		r.Show()
	} else {
		r.Hide()
	}
	r.Refresh()
}

func (l *receiptList) showCursor() {
	for i, r := range l.rings {
		l.outline(i, r)
	}
}

// DrawsOwnFocus: the window's ring is not drawn round the list; its cursor shows.
func (l *receiptList) DrawsOwnFocus() {}

func (l *receiptList) FocusGained() {
	l.focused = true
	l.moveCursor(l.Cursor)
}

func (l *receiptList) FocusLost() {
	l.focused = false
	l.showCursor()
}

func (l *receiptList) moveCursor(i int) {
	n := len(l.Objects())
	l.Cursor = max(0, min(i, n-1))
	if n > 0 {
		l.ScrollTo(l.Cursor)
	}
	l.showCursor()
}

// TypedKey moves the cursor, or copies its row's SHA-256.
func (l *receiptList) TypedKey(e *fyne.KeyEvent) {
	page := 1
	if h := l.RowHeight(); h > 0 {
		page = int(l.Size().Height/h) - 1
	}
	switch e.Name {
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		l.copyCursor()
	default:
		if to, ok := widgets.CursorMove(e.Name, l.Cursor, page, len(l.Objects())); ok {
			l.moveCursor(to)
		}
	}
}

// TypedShortcut copies the cursor's SHA-256 on Ctrl+C.
func (l *receiptList) TypedShortcut(s fyne.Shortcut) {
	if _, ok := s.(*fyne.ShortcutCopy); ok {
		l.copyCursor()
	}
}

func (l *receiptList) copyCursor() {
	if objs := l.Objects(); l.Cursor >= 0 && l.Cursor < len(objs) {
		l.copy(objs[l.Cursor])
	}
}

func (l *receiptList) RowHeight() float32 {
	for _, r := range l.rings {
		return r.Size().Height + l.Theme().Size(theme.SizeNamePadding)
	}
	return 0
}

// Objects are what the panel shows, newest first.
func (p *SandboxPanel) Objects() []emulator.Object {
	if p.Shown == nil {
		return nil
	}
	return p.Shown.Objects
}

func objectName(o emulator.Object) string {
	if o.Name != "" {
		return o.Name
	}
	return o.ID
}

// Refresh is called when the destination changes: the panel is for the sandbox.
func (p *SandboxPanel) Refresh() {
	if p.Host.Destination().IsSandbox() {
		p.Content.Show()
	} else {
		p.Content.Hide()
	}
}

// Draw draws what snapshot s says the sandbox received; it runs on the UI
// goroutine.
func (p *SandboxPanel) Draw(s *view.Snapshot) {
	if p.Shown != nil && s.Receipts.Count == p.Shown.Count && len(s.Receipts.Objects) == len(p.Shown.Objects) {
		return
	}
	r := s.Receipts
	p.Shown = &r
	p.Heading.SetText(view.Visual(view.Say("ui.sandbox.receivedN", "N", s.Receipts.Count)))
	p.List.Refresh()
}

// ReceiptsWatch reads what the sandbox received for each snapshot, off the
// UI goroutine: it logs each new object and appends it to the receipts
// file, if one is named. It is owned by the sampling goroutine.
type ReceiptsWatch struct {
	Sandbox  *Sandbox
	Log      *slog.Logger
	Receipts string // ReceiptsEnv's file, if any
	Seen     int
	started  bool
}

func NewReceiptsWatch(sb *Sandbox, log *slog.Logger) *ReceiptsWatch {
	// Objects from earlier sessions are shown, not announced.
	return &ReceiptsWatch{Sandbox: sb, Log: log, Receipts: os.Getenv(ReceiptsEnv), Seen: len(sb.Server.Objects())}
}

// Read returns what the sandbox holds when it received anything since the
// last call, else nil.
func (w *ReceiptsWatch) Read() *view.Receipts {
	if w.started && w.Sandbox.Server.Received() == w.Seen {
		return nil // nothing new: the list of what was received is not copied at every tick
	}
	objs := w.Sandbox.Server.Objects()
	w.started = true
	for _, o := range objs[min(w.Seen, len(objs)):] {
		w.Log.Info("sandbox received", "name", objectName(o), "size", o.Size, "sha256", o.SHA256)
		if w.Receipts != "" {
			if err := appendReceipt(w.Receipts, o); err != nil {
				w.Log.Warn("could not write the sandbox receipt", "err", err)
			}
		}
	}
	w.Seen = len(objs)
	newest := make([]emulator.Object, len(objs))
	for i, o := range objs {
		newest[len(objs)-1-i] = o
	}
	return &view.Receipts{Count: len(newest), Objects: newest}
}

func appendReceipt(path string, o emulator.Object) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%s\t%d\t%s\n", objectName(o), o.Size, o.SHA256)
	return errors.Join(err, f.Close())
}

// SandboxController is what the sandbox's panel asks of the window.
type SandboxController interface {
	view.Frame
	Destination() dest.Destination
}
