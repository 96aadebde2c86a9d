package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/ui/destination"
	"hoist/ui/look"
	"hoist/ui/queuelist"
	"hoist/ui/readingcheck"
	"hoist/ui/received"
	"hoist/ui/settings"
	"hoist/ui/view"
	"hoist/ui/widgets"
	"hoist/words"
)

// hasLabel reports whether a visible label under o says text.
func hasLabel(o fyne.CanvasObject, text string) bool {
	found := false
	walk(o, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && l.Visible() && strings.Contains(l.Text, text) {
			found = true
		}
	})
	return found
}

func TestEmptyWindow(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	if !h.d.empty.Visible() || h.d.list.Visible() {
		t.Fatal("an empty queue should show the empty state, not the list")
	}
	// The sandbox takes any file: the empty window does not ask for
	// images or email files only.
	if !hasLabel(h.d.empty, "Drop files here") {
		t.Error("the empty state does not say what to do")
	}
	if got := h.d.foot.Summary.Text(); got != "The list is empty." {
		t.Errorf("summary = %q", got)
	}
	test.AssertImageMatches(t, "window_empty.png", h.d.win.Canvas().Capture())
}

// TestDropUploadsEveryFile drops four pictures, two email files and a folder
// with a hidden file on the sandbox destination: every file becomes a row,
// the sandbox receives each one whole, and the hidden file is left out with
// a sentence saying so.
func TestDropUploadsEveryFile(t *testing.T) {
	receipts := filepath.Join(t.TempDir(), "receipts.tsv")
	t.Setenv(received.ReceiptsEnv, receipts)
	h := newHarness(t, harnessOptions{sandboxMode: true})
	colours := []color.Color{color.RGBA{200, 30, 30, 255}, color.RGBA{30, 160, 60, 255}, color.RGBA{30, 60, 200, 255}, color.RGBA{220, 180, 20, 255}}
	var paths []string
	for i, name := range []string{"one.png", "two.png", "three.png", "تقرير_الحملة_2026.png"} {
		paths = append(paths, h.writeFile(name, pngBytes(t, 64+i, 48, colours[i])))
	}
	paths = append(paths,
		h.writeFile("دوح.eml", emailBytes("Maryam Ahmadi <maryam@example.com>", "Final report")),
		h.writeFile("Quarterly update.eml", emailBytes("Jordan Lee <jordan@example.com>", "Quarterly update")),
	)
	h.writeFile("folder/.hidden.png", pngBytes(t, 8, 8, color.Black))
	h.writeFile("folder/inside.png", pngBytes(t, 8, 8, color.White))

	h.drop(append(paths, filepath.Join(h.files, "folder"))...)
	h.waitFor("seven finished rows", func() bool {
		s := h.d.shots.Last.Totals
		return s.Files == 7 && s.Done == 7 && len(h.d.list.Views()) == 7
	})
	if h.d.empty.Visible() {
		t.Error("the empty state is still shown")
	}
	if !strings.Contains(h.d.frame.Message.Text(), "Left out 1 hidden or system file") || !strings.Contains(h.d.frame.Message.Text(), ".hidden.png") {
		t.Errorf("message = %q, want it to say the hidden file was left out", h.d.frame.Message.Text())
	}
	if got, want := h.d.foot.Summary.Text(), "7 of 7 files"; !strings.HasPrefix(got, want) {
		t.Errorf("summary = %q, want it to start with %q", got, want)
	}
	if h.d.foot.Overall.Value != 1 {
		t.Errorf("overall progress = %v, want 1", h.d.foot.Overall.Value)
	}

	received := map[string]emulator.Object{}
	for _, o := range h.sb.Server.Objects() {
		received[o.Name] = o
	}
	for _, p := range append(paths, filepath.Join(h.files, "folder", "inside.png")) {
		name := filepath.Base(p)
		o, ok := received[name]
		if !ok {
			t.Errorf("the sandbox did not receive %s", name)
			continue
		}
		if want := sha256Hex(t, p); o.SHA256 != want {
			t.Errorf("%s arrived with SHA-256 %s, want %s", name, o.SHA256, want)
		}
	}

	email := h.row("Quarterly update.eml")
	if got := unmarked(email.Detail.Text()); got != "Quarterly update — from Jordan Lee <jordan@example.com>" {
		t.Errorf("email row detail = %q", got)
	}
	if got := email.Status.Text(); !strings.HasPrefix(got, "Done") {
		t.Errorf("email row status = %q", got)
	}
	if !email.Result.Visible() || email.Pause.Visible() {
		t.Error("a finished row should offer Show result and no Pause")
	}
	h.waitFor("the sandbox panel to list the files", func() bool { return len(h.d.sandboxPanel.Objects()) == 7 })
	data, err := os.ReadFile(receipts)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 7 {
		t.Fatalf("receipts file has %d lines, want 7:\n%s", len(lines), data)
	}
	for _, line := range lines {
		name, _, _ := strings.Cut(line, "\t")
		if o, ok := received[name]; !ok || !strings.HasSuffix(line, "\t"+o.SHA256) {
			t.Errorf("receipt %q does not match what the sandbox holds", line)
		}
	}
}

// stalled starts an upload of a 2 MiB file in 256 KiB chunks that the sandbox
// holds after the first chunk, until release is closed.
func stalled(t *testing.T, h *harness, name string) (release chan struct{}, path string) {
	t.Helper()
	release = make(chan struct{})
	h.sb.Server.Inject(emulator.Fault{
		Match: emulator.Match{Stage: emulator.StageChunk}, Skip: 1, Times: -1,
		Action: emulator.Stall{Until: release},
	})
	path = h.writeFile(name, pattern(2<<20))
	h.drop(path)
	h.waitFor("the first chunk to be confirmed", func() bool {
		for _, v := range h.d.list.Views() {
			if v.Name == name {
				return v.State == engine.Uploading && v.Committed == 256<<10
			}
		}
		return false
	})
	return release, path
}

// TestPauseAndResumeFromTheRow pauses an upload from its row's button, checks
// that the engine paused it where the server stood, then resumes it and
// checks that it continued from there rather than from the start.
func TestPauseAndResumeFromTheRow(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	release, path := stalled(t, h, "big file.dat")

	test.Tap(h.row("big file.dat").Pause)
	h.waitFor("the job to pause", func() bool { return h.Shown("big file.dat") == engine.Paused })
	r := h.row("big file.dat")
	if r.Bar.Value != 0.125 {
		t.Errorf("paused bar = %v, want 0.125 (256 KiB of 2 MiB confirmed)", r.Bar.Value)
	}
	if got := r.Status.Text(); got != "Paused" {
		t.Errorf("paused status = %q", got)
	}
	if !r.Resume.Visible() || r.Pause.Visible() {
		t.Error("a paused row should offer Resume, not Pause")
	}
	test.AssertImageMatches(t, "window_paused.png", h.d.win.Canvas().Capture())

	h.sb.Server.ClearRequests()
	close(release)
	test.Tap(r.Resume)
	h.waitFor("the upload to finish", func() bool { return h.Shown("big file.dat") == engine.Done })

	var first string
	for _, req := range h.sb.Server.Requests() {
		if req.Stage == emulator.StageChunk {
			first = req.ContentRange
			break
		}
	}
	if !strings.HasPrefix(first, "bytes 262144-") {
		t.Errorf("after resuming, the first chunk was %q; want it to start at byte 262144, where the server stood", first)
	}
	objs := h.sb.Server.Objects()
	if len(objs) != 1 || objs[0].SHA256 != sha256Hex(t, path) {
		t.Errorf("the sandbox holds %+v, want the file whole", objs)
	}
	if got := h.row("big file.dat").Bar.Value; got != 1 {
		t.Errorf("finished bar = %v", got)
	}
}

// TestCancelAndRetryFromTheRow cancels a stalled upload with its button, then
// retries it to the end.
func TestCancelAndRetryFromTheRow(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	release, path := stalled(t, h, "report.dat")

	test.Tap(h.row("report.dat").Cancel)
	h.waitFor("the job to be canceled", func() bool { return h.Shown("report.dat") == engine.Canceled })
	r := h.row("report.dat")
	if got := r.Status.Text(); got != "Canceled" {
		t.Errorf("canceled status = %q", got)
	}
	close(release)
	test.Tap(r.Retry)
	h.waitFor("the retried upload to finish", func() bool { return h.Shown("report.dat") == engine.Done })
	if objs := h.sb.Server.Objects(); len(objs) != 1 || objs[0].SHA256 != sha256Hex(t, path) {
		t.Errorf("the sandbox holds %+v, want the file whole", objs)
	}
	test.Tap(h.row("report.dat").Remove)
	h.waitFor("the row to go", func() bool { return len(h.d.list.Views()) == 0 })
	h.d.removals.Commit() // as when the Undo goes away
	h.waitFor("the job to go", func() bool { return len(h.q.Jobs()) == 0 })
	if !h.d.empty.Visible() {
		t.Error("with the last row removed, the empty state should show again")
	}
}

// TestFailedUploadSaysWhatToDo makes the sandbox refuse a file: the row says
// why in a sentence, offers Retry, and Retry failed from the bottom bar
// sends it once the sandbox takes it.
func TestFailedUploadSaysWhatToDo(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	fault := h.sb.Server.Inject(emulator.Fault{
		Match:  emulator.Match{Stage: emulator.StageUpload},
		Times:  -1,
		Action: emulator.Answer{Status: 403, Message: "The caller does not have permission"},
	})
	h.drop(h.writeFile("note.eml", emailBytes("Sam <sam@example.com>", "Hello")))
	h.waitFor("the upload to fail", func() bool { return h.Shown("note.eml") == engine.Failed })
	r := h.row("note.eml")
	status := r.Status.Text()
	if !strings.HasPrefix(status, "Failed: ") || !strings.Contains(status, "Retry") {
		t.Errorf("failed status = %q, want a reason and the next step", status)
	}
	if !r.Retry.Visible() || !r.Details.Visible() {
		t.Error("a failed row should offer Retry and Details")
	}
	if h.d.foot.RetryFailed.Disabled() {
		t.Error("Retry failed should be enabled")
	}
	test.AssertImageMatches(t, "window_failed.png", h.d.win.Canvas().Capture())

	fault.Remove()
	test.Tap(h.d.foot.RetryFailed)
	h.waitFor("the retried upload to finish", func() bool { return h.Shown("note.eml") == engine.Done })
}

// TestRefusedFilesSayWhy adds files a Gmail destination cannot take: each
// becomes a row that says why, in plain words, and nothing is sent.
func TestRefusedFilesSayWhy(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	h.d.bar.Choose(dest.Destination{Kind: dest.GmailInsert, Account: "office@example.com"})
	h.drop(
		h.writeFile("photo.png", pngBytes(t, 10, 10, color.White)),
		h.writeFile("fake.eml", []byte("this is not an email at all")),
		filepath.Join(h.files, "missing.eml"),
	)
	h.waitFor("three refused rows", func() bool {
		return h.Shown("photo.png") == engine.Refused && h.Shown("fake.eml") == engine.Refused && h.Shown("missing.eml") == engine.Refused
	})
	for name, why := range map[string]string{
		"photo.png":   "is not an email file",
		"fake.eml":    "email file",
		"missing.eml": "is no longer there",
	} {
		r := h.row(name)
		got := r.Status.Text()
		if !strings.HasPrefix(got, "Refused: ") || !strings.Contains(got, why) {
			t.Errorf("%s status = %q, want it to say it %s", name, got, why)
		}
		if !r.Remove.Visible() || !r.Details.Visible() || !r.Retry.Visible() || r.Resume.Visible() {
			t.Errorf("%s: a refused row should offer Details, Retry (a second look at the file) and Remove", name)
		}
	}
	if n := len(h.sb.Server.Requests()); n != 0 {
		t.Errorf("%d requests reached the server for refused files", n)
	}
}

func TestDeleteKeyRemovesTheSelectedRow(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.drop(h.writeFile("a.eml", emailBytes("A <a@example.com>", "A")), h.writeFile("b.eml", emailBytes("B <b@example.com>", "B")))
	h.waitFor("two finished rows", func() bool { return h.d.shots.Last.Totals.Done == 2 && len(h.d.list.Views()) == 2 })
	h.d.list.Click(h.d.list.Snap.Index[h.job("a.eml").ID], 0)
	h.d.list.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	h.waitFor("a.eml to go", func() bool { return len(h.d.list.Views()) == 1 })
	if h.d.list.Views()[0].Name != "b.eml" {
		t.Errorf("left %s, want b.eml", h.d.list.Views()[0].Name)
	}
}

// TestSettingsPersist changes settings through the form and reads them back
// from the app's preferences, as the next start would.
func TestSettingsPersist(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	form := settings.NewSettingsPanel(settings.SettingsPanelSide{WindowFrame: h.d.frame, SettingsSide: h.d.settings}).Form
	pick := func(label, choice string) {
		t.Helper()
		for _, it := range form.Items {
			if it.Text == label {
				destination.NoteField(it).(*widgets.Select).SetSelected(choice)
				return
			}
		}
		t.Fatalf("no setting %q", label)
	}
	pick("Uploads at once", "2")
	pick("Piece size", "1 MiB")
	pick("Speed limit", "1 MB/s")
	pick("Forget finished uploads after", "7 days")
	pick("Appearance", "Dark")
	pick("Wait for the sign-in", "15 minutes")
	for _, it := range form.Items {
		if c, ok := it.Widget.(*readingcheck.Check); ok {
			c.SetChecked(false)
		}
	}
	want := view.Settings{Parallel: 2, ChunkSize: 1 << 20, Bandwidth: 1_000_000, HistoryDays: 7, Theme: look.ThemeDark, AutoResume: false, SignInWait: 15, Background: false, Language: words.SystemSetting}
	if got := view.LoadSettings(h.app.Preferences()); got != want {
		t.Errorf("saved settings = %+v, want %+v", got, want)
	}
	if th, ok := h.app.Settings().Theme().(*look.HoistTheme); !ok || th.Choice != look.ThemeDark {
		t.Errorf("theme = %#v, want the dark Hoist theme", h.app.Settings().Theme())
	}
	h.d.settings.Reset()
	h.waitFor("the reset to finish", func() bool { return strings.Contains(h.d.frame.Message.Text(), "reset") })
	if got := view.LoadSettings(h.app.Preferences()); got != view.DefaultSettings {
		t.Errorf("after reset, settings = %+v, want the defaults", got)
	}
}

// TestShowResult: a finished file's result shows its ID in plain, readable
// text with a Copy button that puts it on the clipboard.
func TestShowResult(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.drop(h.writeFile("a.eml", emailBytes("A <a@example.com>", "A")))
	h.waitFor("a finished row", func() bool { return h.Shown("a.eml") == engine.Done })
	v := h.job("a.eml")
	if v.Result == nil || v.Result.ID == "" {
		t.Fatalf("the sandbox gave no ID: %+v", v.Result)
	}
	test.Tap(h.row("a.eml").Result)
	overlays := h.d.win.Canvas().Overlays().List()
	if len(overlays) == 0 {
		t.Fatal("Show result opened nothing")
	}
	walk(overlays[len(overlays)-1], func(o fyne.CanvasObject) {
		if e, ok := o.(*widget.Entry); ok && e.Disabled() && e.Text == v.Result.ID {
			t.Error("the ID is shown greyed out, as if it were not available")
		}
	})
	if !hasLabel(overlays[len(overlays)-1], v.Result.ID) {
		t.Errorf("the result does not show the ID %q", v.Result.ID)
	}
	test.Tap(h.button("Copy"))
	if got := h.app.Clipboard().Content(); got == "" || !strings.Contains(v.Result.ID+v.Result.URL+v.Result.Name, got) {
		t.Errorf("Copy put %q on the clipboard", got)
	}
}

// TestSummaryShowsInFull: the whole-queue line says everything, its end
// ("— 1 needs attention") included, beside the whole-queue buttons, at the
// window's usual size and narrower.
func TestSummaryShowsInFull(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.foot.Draw(&view.Snapshot{Totals: view.Totals{Summary: engine.Summary{
		Files: 12, Done: 8, Failed: 1, Active: 2, Bytes: 23_000_000, BytesDone: 6_300_000,
		Speed: 100_000, ETA: 3 * time.Minute, Version: 1,
	}}})
	text := h.d.foot.Summary.Text()
	if !strings.HasSuffix(text, "— 1 needs attention") {
		t.Fatalf("summary = %q", text)
	}
	for _, width := range []float32{960, 640} {
		h.d.win.Resize(fyne.NewSize(width, 640))
		l := h.d.foot.Summary
		th := l.Theme()
		room := l.Size().Width - 2*th.Size(theme.SizeNameInnerPadding)
		oneLine := fyne.MeasureText(text, th.Size(theme.SizeNameText), l.Style).Width <= room
		wraps := l.Size().Height >= l.MinSize().Height // the paragraph wraps at words, never cuts
		if !oneLine && !wraps {
			t.Errorf("at %v wide, the summary is cut short: %v of room for %q", width, room, text)
		}
	}
}

// TestSettingsExplainInFull: the explanations under the settings wrap to
// the dialog's width instead of being cut off at its edge.
func TestSettingsExplainInFull(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	form := settings.NewSettingsPanel(settings.SettingsPanelSide{WindowFrame: h.d.frame, SettingsSide: h.d.settings}).Form
	var notes []string
	for _, it := range form.Items {
		if it.HintText != "" {
			t.Errorf("%q explains itself on a line that cannot wrap: %q", it.Text, it.HintText)
		}
		walk(it.Widget, func(o fyne.CanvasObject) {
			if r, ok := o.(*widgets.Paragraph); ok && r.Visible() { // a paragraph always wraps
				notes = append(notes, r.Text())
			}
		})
	}
	if !slices.ContainsFunc(notes, func(s string) bool { return strings.HasPrefix(s, "Big files go up in pieces") }) {
		t.Errorf("no wrapping explanation of the piece size among %q", notes)
	}
}

// TestQuitWhileUploading closes the window during an upload: it asks, pauses
// everything, saves the list and quits; a queue opened again on the same
// list has the file back, paused where the server stood.
func TestQuitWhileUploading(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	release, _ := stalled(t, h, "movie.dat")
	defer close(release)

	h.d.exit.closing()
	test.Tap(h.button("Pause uploads and quit"))
	h.waitFor("the queue to pause for quitting", func() bool { return h.d.exit.quitting && h.state("movie.dat") == engine.Paused })

	again := h.openQueue(engineOptionsNoResume())
	views := again.Jobs()
	if len(views) != 1 || views[0].Name != "movie.dat" || views[0].State != engine.Paused || views[0].Committed != 256<<10 {
		t.Fatalf("after reopening, the queue holds %v, want movie.dat paused at 262144 bytes", jobNames(views))
	}
}

func engineOptionsNoResume() engine.Options { return engine.Options{AutoResume: false} }

func sha256Hex(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// TestRowGolden draws a row in each main state from a fixed view of a job,
// so the pictures do not depend on timing.
func TestRowGolden(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(look.NewTheme(look.ThemeLight))
	now := time.Date(2026, 2, 2, 10, 0, 0, 0, time.UTC)
	base := engine.JobView{
		ID: "job1", Path: "/home/sam/Invoice فاتورة 2026.pdf", Name: "Invoice فاتورة 2026.pdf",
		Size: 24_000_000, MIME: "application/pdf", Destination: "sandbox", DestKind: "sandbox", Version: 1,
	}
	email := base
	email.ID, email.Name, email.MIME, email.Size = "job2", "گزارش نهایی.eml", "message/rfc822", 48_200
	email.Email = &engine.Email{From: "Maryam Ahmadi <maryam@example.com>", Subject: "گزارش نهایی"}
	tests := []struct {
		Name string
		View engine.JobView
		edit func(*engine.JobView)
	}{
		{"uploading", base, func(v *engine.JobView) {
			v.State, v.Committed, v.Sent, v.Speed, v.ETA = engine.Uploading, 8_000_000, 8_400_000, 2_000_000, 8*time.Second
		}},
		{"paused", base, func(v *engine.JobView) { v.State, v.Committed = engine.Paused, 12_000_000 }},
		{"retrying", base, func(v *engine.JobView) {
			v.State, v.Committed, v.Reason, v.RetryAt = engine.Retrying, 4_000_000, "The connection dropped.", now.Add(8*time.Second)
		}},
		{"failed", email, func(v *engine.JobView) {
			v.State, v.Reason, v.Next = engine.Failed, "Your Google sign-in expired.", "Sign in again to continue."
		}},
		{"done", email, func(v *engine.JobView) {
			v.State, v.Committed = engine.Done, v.Size
			v.Result = &engine.Result{ID: "18c2f0a9", Summary: "Saved as message 18c2f0a9."}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			v := tt.View
			tt.edit(&v)
			v.Actions = engine.ActionsFor(v.State, engine.Facts{})
			r := queuelist.NewJobRow(rowActions{})
			w := test.NewTempWindow(t, r)
			w.Resize(fyne.NewSize(820, r.MinSize().Height+8))
			r.Draw(v, now)
			test.AssertImageMatches(t, "row_"+tt.Name+".png", w.Canvas().Capture())
		})
	}
}

// TestWithoutGoogleTheWindowOffersTheSandbox: with no Google client set up, a
// first start offers the sandbox, and taking the offer makes it the destination.
func TestWithoutGoogleTheWindowOffersTheSandbox(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	if !h.d.bar.Setup.Visible() {
		t.Fatal("with no Google client, the window should offer the sandbox")
	}
	test.Tap(h.button("Try Hoist with the built-in sandbox"))
	if h.d.target.Dest.Kind != dest.Sandbox {
		t.Errorf("destination = %s, want the sandbox", h.d.target.Dest.Kind)
	}
	if h.d.bar.Setup.Visible() {
		t.Error("the offer should go once the sandbox is chosen")
	}
	h.drop(h.writeFile("first.eml", emailBytes("A <a@example.com>", "First")))
	h.waitFor("the file to reach the sandbox", func() bool { return h.Shown("first.eml") == engine.Done })
}

// TestTabReachesTheControls walks the focus through the window with Tab;
// Space on the list selects the cursor's row, whose actions Tab then
// reaches on the selection's panel.
func TestTabReachesTheControls(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.drop(h.writeFile("a.eml", emailBytes("A <a@example.com>", "A")))
	h.waitFor("a finished row", func() bool { return h.Shown("a.eml") == engine.Done })
	c := h.d.win.Canvas()
	reached := map[string]bool{}
	for range 40 {
		test.FocusNext(c)
		switch f := c.Focused().(type) {
		case *widgets.Button:
			reached[f.Text] = true
		case *widgets.Select:
			reached["destination picker"] = true
		case *queuelist.QueueList:
			reached["list"] = true
			f.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
		}
	}
	for _, want := range []string{"destination picker", "Options…", "Add files…", "Settings", "list", "Show result", "Remove", "Clear finished"} {
		if !reached[want] {
			t.Errorf("Tab never reaches %q; it reaches %v", want, reached)
		}
	}
}

// TestChangedFileOffersStartOver: a file edited while its upload was paused is
// not mixed with the bytes already sent; the row says so, offers "Start over"
// (and not Resume), and Start over sends the file as it is now.
func TestChangedFileOffersStartOver(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	release, path := stalled(t, h, "budget.dat")

	test.Tap(h.row("budget.dat").Pause)
	h.waitFor("the job to pause", func() bool { return h.Shown("budget.dat") == engine.Paused })
	close(release)
	if err := os.WriteFile(path, pattern(3<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	test.Tap(h.row("budget.dat").Resume)
	h.waitFor("the job to stop for the change", func() bool { return h.Shown("budget.dat") == engine.Attention })
	r := h.row("budget.dat")
	if !strings.Contains(r.Status.Text(), "changed since it was added") {
		t.Errorf("row status %q does not say the file changed", r.Status.Text())
	}
	if !r.Restart.Visible() || r.Resume.Visible() {
		t.Error("a changed file should offer Start over, not Resume")
	}
	if n := len(h.sb.Server.Objects()); n != 0 {
		t.Fatalf("the sandbox stored %d objects from a file that changed mid-upload", n)
	}
	test.Tap(r.Restart)
	h.waitFor("the new upload to finish", func() bool { return h.Shown("budget.dat") == engine.Done })
	if objs := h.sb.Server.Objects(); len(objs) != 1 || objs[0].SHA256 != sha256Hex(t, path) {
		t.Errorf("the sandbox holds %+v, want the file as it is now", objs)
	}
}
