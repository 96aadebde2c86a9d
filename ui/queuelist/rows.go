package queuelist

import (
	"image"
	"image/color"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// JobRow shows one file of the queue in two lines: its picture, name and
// size, with the buttons its state allows, then its state in words with
// speed and time left, and a slim bar of the bytes that crossed the link.
// What does not fit is in the selection's details.
type JobRow struct {
	widget.BaseWidget

	Host  rowController
	Index int // the list position the row shows
	View  engine.JobView
	Shown uint64 // Version on screen; 0 before the first show
	tick  int64  // the second a countdown was last drawn for
	// needPicture: the thumbnail was still being made when the row was drawn.
	needPicture bool

	icon     *widget.Icon
	thumb    *canvas.Image
	Name     *widgets.Label
	Detail   *widgets.Label
	size     *widgets.Label
	Bar      *widgets.SlimBar
	Status   *widgets.Label
	Progress *widgets.Label
	Selected *canvas.Rectangle // the selection's background
	Hovered  *canvas.Rectangle // the pointer's background
	// onHover tells the list the pointer came onto the row, or left it.
	onHover func(r *JobRow, in bool)

	Pause, Resume, SignIn, Cancel, Retry, Restart, Remove, Result, Details *widgets.CompactButton
	ByAction                                                               map[engine.Action]*widgets.CompactButton
	Cursor                                                                 *canvas.Rectangle // the keyboard's place in the list

	nameLine, statusLine *fyne.Container // laid out again when what is on their right changes
	statusLayout         *statusLine     // keeps the state word whole
	Content              fyne.CanvasObject
}

func NewJobRow(d rowController) *JobRow {
	r := &JobRow{Host: d}
	r.icon = widget.NewIcon(theme.FileIcon())
	r.thumb = &canvas.Image{FillMode: canvas.ImageFillContain, ScaleMode: canvas.ImageScaleSmooth}
	r.thumb.Hide()
	r.Name = widgets.NewLabel("")
	r.Name.Style = fyne.TextStyle{Bold: true}
	r.Detail = widgets.NewLabel("")
	r.Detail.ColorName = theme.ColorNamePlaceHolder
	r.size = widgets.NewWholeLabel("")
	r.size.SetAlignment(fyne.TextAlignTrailing)
	r.Bar = widgets.NewSlimBar()
	r.Status = widgets.NewLabel("")
	r.Progress = widgets.NewLabel("") // cut before the state word is (statusLine)
	r.Selected = canvas.NewRectangle(color.Transparent)
	r.Selected.CornerRadius = 4
	r.Hovered = canvas.NewRectangle(color.Transparent)
	r.Hovered.CornerRadius = 4

	r.Cursor = widgets.NewFocusRing()

	r.ByAction = map[engine.Action]*widgets.CompactButton{}
	for _, a := range engine.AllActions() {
		r.ByAction[a] = widgets.NewCompactButton(view.Visual(view.ButtonWords(a)), actionIcon(a), func() { d.Do(r.View, a) })
	}
	r.Pause, r.Resume, r.SignIn, r.Cancel = r.ByAction[engine.Pause], r.ByAction[engine.Resume], r.ByAction[engine.SignIn], r.ByAction[engine.Cancel]
	r.Retry, r.Restart, r.Remove = r.ByAction[engine.Retry], r.ByAction[engine.Restart], r.ByAction[engine.Remove]
	r.Result = widgets.NewCompactButton(view.Visual(view.ShowResultWords()), theme.InfoIcon(), func() { d.ShowResult(r.View) })
	r.Details = widgets.NewCompactButton(view.Visual(view.DetailsButtonWords()), theme.InfoIcon(), func() { d.ShowDetails(r.View) })
	for _, b := range r.Buttons() {
		b.Hide()
	}
	for _, l := range []*widgets.Label{r.Name, r.Detail, r.size, r.Status, r.Progress} {
		l.Inner = widgets.CompactInnerPadding
	}
	r.SignIn.Importance = widget.HighImportance // the one way on for a row waiting for sign-in

	picture := container.New(layout.NewGridWrapLayout(fyne.NewSquareSize(thumbSize)), container.NewStack(r.icon, r.thumb))
	buttons := widgets.CompactRow(r.Pause, r.Resume, r.SignIn, r.Retry, r.Restart, r.Result, r.Details, r.Cancel, r.Remove)
	names := container.New(widgets.Mirrored(nameAndDetail{}), r.Name, r.Detail)
	r.nameLine = container.New(widgets.Mirrored(&nameLine{r: r}), names, r.size, buttons)
	r.statusLine, r.statusLayout = newStatusLine(r.Status, r.Progress, r.Bar)
	lines := container.New(widgets.TightVBox, r.nameLine, r.statusLine)
	// The list's scroll bar is at its right in every language: the room
	// kept for it is at the row's right, beyond the buttons in English and
	// beyond the picture in a right-to-left window (the bar was drawn over
	// the thumbnails there).
	var inner fyne.CanvasObject
	if view.Rtl() {
		inner = container.New(&scrollRoomRight{}, widgets.CompactBorder(container.NewCenter(picture), nil, lines), widgets.ScrollRoom())
	} else {
		inner = widgets.CompactBorder(container.NewCenter(picture), widgets.ScrollRoom(), lines)
	}
	r.Content = container.NewStack(r.Hovered, r.Selected, inner, r.Cursor)
	r.ExtendBaseWidget(r)
	return r
}

// setSelected shows whether the row is among the selected ones.
func (r *JobRow) setSelected(on bool) { r.fill(r.Selected, on, theme.ColorNameSelection) }

// setHovered shows whether the pointer is on the row. The list decides,
// also after the wheel moved the rows under a pointer that stood still.
func (r *JobRow) setHovered(on bool) { r.fill(r.Hovered, on, theme.ColorNameHover) }

// fill gives a background of the row the theme's colour name when on, else
// none, drawing it again only when it changes.
func (r *JobRow) fill(bg *canvas.Rectangle, on bool, name fyne.ThemeColorName) {
	c := color.Color(color.Transparent)
	if on {
		c = r.Theme().Color(name, fyne.CurrentApp().Settings().ThemeVariant())
	}
	if bg.FillColor != c {
		bg.FillColor = c
		bg.Refresh()
	}
}

// MouseIn: the pointer came onto the row.
func (r *JobRow) MouseIn(*desktop.MouseEvent) {
	if r.onHover != nil {
		r.onHover(r, true)
	}
}

// MouseMoved: the row under the pointer is still this one.
func (r *JobRow) MouseMoved(*desktop.MouseEvent) {}

// MouseOut: the pointer left the row (or went onto one of its buttons).
func (r *JobRow) MouseOut() {
	if r.onHover != nil {
		r.onHover(r, false)
	}
}

// thumbSize is the side of a row's picture, in Fyne units.
const thumbSize = 36

// setCursor shows whether the keyboard's cursor is on the row.
func (r *JobRow) setCursor(on bool) {
	if on {
		r.Cursor.StrokeColor = widgets.FocusColor(r.Theme())
		r.Cursor.Show()
	} else {
		r.Cursor.Hide()
	}
	r.Cursor.Refresh()
}

func (r *JobRow) Buttons() []*widgets.CompactButton {
	return []*widgets.CompactButton{r.Pause, r.Resume, r.SignIn, r.Cancel, r.Retry, r.Restart, r.Remove, r.Result, r.Details}
}

func (r *JobRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(r.Content)
}

// Draw puts v on the row; it does nothing when the row already shows this
// version of v, except to move a countdown on.
func (r *JobRow) Draw(v engine.JobView, now time.Time) {
	second := now.Unix()
	sameJob := v.ID == r.View.ID && r.Shown != 0
	if sameJob && v.Version == r.Shown && (v.State != engine.Retrying || second == r.tick) {
		if r.needPicture {
			r.showPicture(v)
		}
		return
	}
	r.View, r.Shown, r.tick = v, v.Version, second

	relayoutName := !sameJob // the name's width and the size's changed
	if !sameJob {
		r.Name.SetText(rowName(v))
		r.size.SetText(view.Speaking().Size(v.Size))
		r.Detail.SetText(detailWords(v))
		r.showPicture(v)
	} else if r.needPicture {
		r.showPicture(v)
	}
	status := view.StateWords(v, now)
	statusChanged := status != r.Status.Text()
	r.Status.SetText(status)
	if head := stateHead(v); head != r.statusLayout.least {
		r.statusLayout.least = head
		r.statusLine.Refresh()
	}
	r.Status.SetColor(stateColor(v.State))
	progress := view.ProgressWords(v)
	relayout := progress != r.Progress.Text() || statusChanged
	r.Progress.SetText(progress)
	value := barValue(v)
	if r.Bar.Value != value {
		r.Bar.SetValue(value)
	}
	if on := showsBar(v); on != r.Bar.Visible() {
		if on {
			r.Bar.Show()
		} else {
			r.Bar.Hide()
		}
		relayout = true // the status has the bar's room, or gives it back
	}
	if r.showButtons(v) || relayoutName {
		r.nameLine.Refresh()
	}
	if relayout {
		r.statusLine.Refresh()
	}
}

func (r *JobRow) showPicture(v engine.JobView) {
	r.needPicture = false
	var img image.Image
	if strings.HasPrefix(v.MIME, "image/") {
		var done bool
		img, done = r.Host.Thumbnail(v)
		r.needPicture = !done
	}
	if img != nil {
		r.thumb.Image = img
		r.thumb.Show()
		r.icon.Hide()
		r.thumb.Refresh()
		return
	}
	r.thumb.Hide()
	r.thumb.Image = nil
	r.icon.SetResource(iconFor(v))
	r.icon.Show()
}

func iconFor(v engine.JobView) fyne.Resource {
	switch {
	case v.Email != nil || strings.HasPrefix(v.MIME, "message/"):
		return theme.MailComposeIcon()
	case strings.HasPrefix(v.MIME, "image/"):
		return theme.FileImageIcon()
	case strings.HasPrefix(v.MIME, "video/"):
		return theme.FileVideoIcon()
	case strings.HasPrefix(v.MIME, "audio/"):
		return theme.FileAudioIcon()
	case strings.HasPrefix(v.MIME, "text/"):
		return theme.FileTextIcon()
	}
	return theme.FileIcon()
}

// detailWords is the row's second line: an email's subject and sender, or
// where the file goes.
func detailWords(v engine.JobView) string {
	if e := v.Email; e != nil {
		subject := strings.TrimSpace(e.Subject)
		if subject == "" {
			subject = view.Say("ui.email.noSubject")
		}
		if from := strings.TrimSpace(e.From); from != "" {
			return view.Say("ui.email.from", "Subject", view.Isolate(subject), "From", view.Isolate(from))
		}
		return subject
	}
	return TypeWords(v.MIME)
}

// TypeWords says what kind of file a media type is: "PNG picture", "video".
func TypeWords(mime string) string {
	kind, sub, _ := strings.Cut(mime, "/")
	sub, _, _ = strings.Cut(sub, "+")
	sub = strings.TrimPrefix(sub, "x-")
	switch kind {
	case "image":
		return view.Say("ui.type.picture", "Type", strings.ToUpper(sub))
	case "video":
		return view.Say("ui.type.video", "Type", strings.ToUpper(sub))
	case "audio":
		return view.Say("ui.type.audio", "Type", strings.ToUpper(sub))
	case "message":
		return view.Say("ui.type.email")
	}
	switch sub {
	case "pdf":
		return view.Say("ui.type.pdf")
	case "zip":
		return view.Say("ui.type.zip")
	case "html":
		return view.Say("ui.type.html")
	}
	return view.Say("ui.type.file")
}

// DestWords names a job's destination briefly.
func DestWords(v engine.JobView) string {
	if v.Destination != "" && v.Destination != v.DestKind {
		return view.Isolate(v.Destination) // a name the user gave
	}
	if s := view.KindWords(dest.Kind(v.DestKind)); s != "" {
		return s
	}
	return view.Isolate(v.Destination)
}

// barValue is how far a file's bar is filled: with the bytes that crossed
// the link, which move while one large request is in flight, not only when
// the server confirms them at its end.
func barValue(v engine.JobView) float64 {
	switch {
	case v.State == engine.Done:
		return 1
	case v.Size > 0:
		return min(float64(max(v.Delivered, v.Committed))/float64(v.Size), 1)
	}
	return 0
}

// showsBar: a bar for files on their way, and for failed ones part-sent;
// a finished, refused or canceled file has no progress worth a bar.
func showsBar(v engine.JobView) bool { return v.ShowsProgress() }

func stateColor(s engine.State) fyne.ThemeColorName {
	switch {
	case s.Trouble():
		return theme.ColorNameError
	case s.Held():
		return theme.ColorNameWarning
	case s == engine.Done:
		return theme.ColorNameSuccess
	}
	return theme.ColorNameForeground
}

// showButtons shows the actions the engine says v's job allows, with the
// result of a finished job and the details of one that did not go, and
// reports whether any button came or went.
func (r *JobRow) showButtons(v engine.JobView) (changed bool) {
	want := make([]*widgets.CompactButton, 0, len(v.Actions)+1)
	for _, a := range v.Actions {
		if b := r.ByAction[a]; b != nil {
			want = append(want, b)
		}
	}
	switch {
	case v.State == engine.Done:
		want = append(want, r.Result)
	case v.State.Trouble():
		want = append(want, r.Details)
	}
	for _, b := range r.Buttons() {
		on := slices.Contains(want, b)
		if on && !b.Visible() {
			b.Show()
			changed = true
		} else if !on && b.Visible() {
			b.Hide()
			changed = true
		}
	}
	return changed
}

// nameLine lays out a row's first line: the name and detail at the start,
// the size and the buttons at the end. Where the room is short (a narrow
// list, a large scale) the buttons drop their words, showing their icons
// alone, before the name is cut shorter than nameLeast; nothing is ever
// drawn over anything else. The line is never narrower than the name's
// least, the size and the icons of leastButtons buttons, so that a list
// gets the room its rows need.
type nameLine struct {
	r *JobRow
}

const (
	nameLeast    = 72 // the name's least room before the buttons drop their words
	leastButtons = 4  // the most buttons a row shows, with a finished file's result
)

// buttonWidths are the widths of the row's buttons shown now, with their
// words and with their icons alone, CompactPadding apart, and how many.
func (l *nameLine) buttonWidths() (words, icons float32, n int) {
	for _, b := range l.r.Buttons() {
		if !b.Visible() {
			continue
		}
		w, i := b.Widths()
		words += w
		icons += i
		n++
	}
	if n > 1 {
		gaps := float32(n-1) * widgets.CompactPadding
		words += gaps
		icons += gaps
	}
	return words, icons, n
}

func (l *nameLine) MinSize(objs []fyne.CanvasObject) fyne.Size {
	names, size, buttons := objs[0], objs[1], objs[2]
	_, icons, _ := l.buttonWidths()
	_, one := l.r.Remove.Widths()
	icons = max(icons, leastButtons*one+(leastButtons-1)*widgets.CompactPadding)
	sw := max(size.MinSize().Width, l.r.size.WidthOf(view.Speaking().Size(888_800_000))) // a size as wide as most
	w := nameLeast + widgets.CompactPadding + sw + widgets.CompactPadding + icons
	return fyne.NewSize(w, max(names.MinSize().Height, size.MinSize().Height, buttons.MinSize().Height))
}

func (l *nameLine) Layout(objs []fyne.CanvasObject, s fyne.Size) {
	names, size, buttons := objs[0], objs[1], objs[2]
	words, icons, n := l.buttonWidths()
	sw := size.MinSize().Width
	bw := float32(0)
	if n > 0 {
		wordless := s.Width-(sw+widgets.CompactPadding+words+widgets.CompactPadding) < nameLeast
		for _, b := range l.r.Buttons() {
			b.SetWordless(wordless)
		}
		bw = words
		if wordless {
			bw = icons
		}
		bw += widgets.CompactPadding
	}
	nw := max(0, s.Width-sw-bw-widgets.CompactPadding)
	names.Move(fyne.NewPos(0, 0))
	names.Resize(fyne.NewSize(nw, s.Height))
	size.Move(fyne.NewPos(nw+widgets.CompactPadding, 0))
	size.Resize(fyne.NewSize(sw, s.Height))
	buttons.Move(fyne.NewPos(nw+widgets.CompactPadding+sw+widgets.CompactPadding, 0))
	buttons.Resize(fyne.NewSize(max(0, bw-widgets.CompactPadding), s.Height))
}

// nameAndDetail lays a row's name and its detail side by side: the name
// takes what it needs, up to two thirds, and the detail the rest.
type nameAndDetail struct{}

func (nameAndDetail) MinSize(objs []fyne.CanvasObject) fyne.Size {
	a, b := objs[0].MinSize(), objs[1].MinSize()
	return fyne.NewSize(a.Width+b.Width, max(a.Height, b.Height))
}

func (nameAndDetail) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	name := objs[0].(*widgets.Label)
	want := name.TextWidth()
	w := min(want, size.Width*2/3)
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(w, size.Height))
	objs[1].Move(fyne.NewPos(w, 0))
	objs[1].Resize(fyne.NewSize(size.Width-w, size.Height))
}

// scrollRoomRight lays out a row and, at its right, the room kept for the
// list's scroll bar, a compact padding apart.
type scrollRoomRight struct{}

func (scrollRoomRight) MinSize(objs []fyne.CanvasObject) fyne.Size {
	row, room := objs[0].MinSize(), objs[1].MinSize()
	return fyne.NewSize(row.Width+widgets.CompactPadding+room.Width, max(row.Height, room.Height))
}

func (scrollRoomRight) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	room := objs[1].MinSize().Width
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(size.Width-room-widgets.CompactPadding, size.Height))
	objs[1].Move(fyne.NewPos(size.Width-room, 0))
	objs[1].Resize(fyne.NewSize(room, size.Height))
}

// rowController is what a row of the list asks of the window.
type rowController interface {
	Do(v engine.JobView, a engine.Action) // one of JobView.Actions
	ShowResult(v engine.JobView)
	ShowDetails(v engine.JobView)
	// Thumbnail gives a picture's thumbnail; done is false while it is being made.
	Thumbnail(v engine.JobView) (img image.Image, done bool)
}
