package ui

import (
	"bytes"
	"fmt"
	"image/color"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/auth"
	"hoist/auth/authtest"
	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/ui/destination"
	"hoist/ui/dialogs"
	"hoist/ui/look"
	"hoist/ui/queuelist"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// toSandbox sends requests for Google's API hosts to the sandbox, as if
// the sandbox were Google; the sign-in service's own requests pass.
type toSandbox struct{ sandbox atomic.Pointer[url.URL] }

func (t *toSandbox) RoundTrip(r *http.Request) (*http.Response, error) {
	if u := t.sandbox.Load(); u != nil && strings.HasSuffix(r.URL.Hostname(), ".googleapis.com") {
		r = r.Clone(r.Context())
		r.URL.Scheme, r.URL.Host = u.Scheme, u.Host
		r.Host = u.Host
	}
	return http.DefaultTransport.RoundTrip(r)
}

// organisationLab is an organisation's folder holding the OAuth client of a
// stand-in for Google's sign-in service, and a sign-in service reading it.
type organisationLab struct {
	srv     *authtest.Server
	browser *authtest.Browser
	system  string
	svc     *auth.Service
	google  *toSandbox
	later   atomic.Int64 // how far the sign-in service's clock is ahead, in nanoseconds
}

func newOrganisationLab(t *testing.T) *organisationLab {
	t.Helper()
	l := &organisationLab{srv: authtest.NewServer(t), browser: &authtest.Browser{}, system: t.TempDir(), google: &toSandbox{}}
	t.Cleanup(func() { l.browser.Wait() })
	if err := os.WriteFile(filepath.Join(l.system, "client_secret_1234-abc.apps.googleusercontent.com.json"), l.srv.ClientJSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	l.svc = &auth.Service{
		Store:        &grants{m: map[string]auth.Grant{}},
		ConfigDir:    t.TempDir(),
		SystemDir:    l.system,
		Endpoints:    auth.EndpointsAt(l.srv.URL),
		OpenBrowser:  l.browser.Open,
		AllowedHosts: []string{l.srv.Host()},
		HTTPClient:   &http.Client{Transport: l.google},
		Now:          func() time.Time { return time.Now().Add(time.Duration(l.later.Load())) },
	}
	return l
}

// newOrganisationWindow is a window whose uploads are signed in as the
// window itself signs in, with the sandbox standing for Google's API hosts.
func newOrganisationWindow(t *testing.T) (*organisationLab, *harness) {
	t.Helper()
	lab := newOrganisationLab(t)
	h := newHarness(t, harnessOptions{auth: lab.svc, queue: engine.Options{Accounts: auth.Uploads{Service: lab.svc}}})
	sb, _ := url.Parse(h.sb.Url)
	lab.google.sandbox.Store(sb)
	return lab, h
}

// TestOrganisationSetUpToUpload: with the organisation's client in the
// system-wide folder, the window offers "Sign in with Google"; an email
// dropped before signing in waits with one sentence and a Sign in button,
// and after signing in it goes on by itself and lands in the sandbox,
// which stands for Gmail.
func TestOrganisationSetUpToUpload(t *testing.T) {
	lab, h := newOrganisationWindow(t)

	h.d.bar.Choose(dest.Destination{Kind: dest.GmailInsert})
	if h.d.bar.Setup.Visible() || !h.d.bar.SignIn.Visible() {
		t.Fatal("with the organisation's client, the window should offer Sign in with Google and no set-up")
	}
	h.drop(h.writeFile("invoice.eml", emailBytes("Ada <ada@example.com>", "Invoice 12")))
	h.waitFor("the email to wait for sign-in", func() bool { return h.Shown("invoice.eml") == engine.Attention })
	row := h.row("invoice.eml")
	if got := row.Status.Text(); !strings.Contains(got, "Sign in with Google to send this file.") || strings.Contains(got, "Resume") || strings.Count(got, ".") > 2 {
		t.Errorf("row says %q; want one sentence asking to sign in", got)
	}
	if !row.SignIn.Visible() || row.Resume.Visible() || row.Restart.Visible() {
		t.Error("the waiting row should offer Sign in, not Resume or Start over")
	}

	test.Tap(row.SignIn)
	h.waitFor("the email to reach the sandbox", func() bool { return h.Shown("invoice.eml") == engine.Done })
	objs := h.sb.Server.Objects()
	if len(objs) != 1 || !strings.HasPrefix(objs[0].Action, "gmail") {
		t.Fatalf("sandbox holds %+v, want the email as Gmail's", objs)
	}
	if h.d.target.Dest.Account != lab.srv.Email {
		t.Errorf("account = %q, want %q", h.d.target.Dest.Account, lab.srv.Email)
	}
	if !strings.Contains(h.d.frame.Message.Text(), "goes on now") {
		t.Errorf("message %q does not say the waiting file goes on", h.d.frame.Message.Text())
	}

	// A grant withdrawn at Google reads the same way, and signing in again sends the file on.
	lab.later.Store(int64(2 * time.Hour)) // the access token has expired: Hoist must refresh it
	lab.srv.Set(func(s *authtest.Server) { s.InvalidGrant = true })
	h.drop(h.writeFile("second.eml", emailBytes("Ada <ada@example.com>", "Invoice 13")))
	h.waitFor("the second email to wait for sign-in", func() bool { return h.Shown("second.eml") == engine.Attention })
	row = h.row("second.eml")
	if got := row.Status.Text(); !strings.Contains(got, "Sign in with Google to send this file.") || !row.SignIn.Visible() {
		t.Errorf("after the grant was withdrawn the row says %q (Sign in offered: %v)", got, row.SignIn.Visible())
	}
	lab.srv.Set(func(s *authtest.Server) { s.InvalidGrant = false })
	test.Tap(row.SignIn)
	h.waitFor("the second email to reach the sandbox", func() bool { return h.Shown("second.eml") == engine.Done })
}

// pickerLab opens pickers for destinations pointed at the harness's sandbox.
func openTestPicker(h *harness, key string, d dest.Destination) (*destination.Picker, *string) {
	d.BaseURL = h.sb.Url
	var got string
	p := destination.OpenPicker(h.d.bar.Host, d.Kind.ListOf(key), d, "", func(v string) { got = v })
	h.waitFor("the list", func() bool { return !strings.HasPrefix(p.Status.Text(), "Fetching") })
	return p, &got
}

func TestPickersListNamesFromTheSandbox(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	cm := dest.Destination{Kind: dest.CM360, Params: map[string]string{}}

	p, got := openTestPicker(h, "profileId", cm)
	if len(p.All) != 2 || !strings.Contains(p.All[0].Words, "Northwind Media") {
		t.Fatalf("profiles %+v (%q)", p.All, p.Status.Text())
	}
	p.Search.SetText("labs")
	if len(p.Shown) != 1 {
		t.Fatalf("search kept %+v", p.Shown)
	}
	p.List.Select(0)
	if *got != "5519020" {
		t.Errorf("chose %q, want the profile's id", *got)
	}

	cm.Params["profileId"] = "4180912"
	p, got = openTestPicker(h, "advertiserId", cm)
	p.Search.SetText("coffee")
	if len(p.Shown) != 1 {
		t.Fatalf("advertisers %+v", p.Shown)
	}
	p.List.Select(0)
	if *got != "64032118" {
		t.Errorf("chose %q, want Blue Harbor Coffee's id", *got)
	}

	cm.Params["profileId"] = "5519020"
	p, _ = openTestPicker(h, "advertiserId", cm)
	if len(p.All) != 0 || !strings.Contains(p.Status.Text(), "sees no advertiser") {
		t.Errorf("a profile without advertisers: %+v %q", p.All, p.Status.Text())
	}

	cm.Params["profileId"] = "99"
	p, _ = openTestPicker(h, "advertiserId", cm)
	if !strings.Contains(unmarked(p.Status.Text()), "Google said: \u201cThe current user does not have access to profile 99\u201d") ||
		p.Status.ColorName != theme.ColorNameError {
		t.Errorf("Google's error is not shown in its words: %q", p.Status.Text())
	}

	gm := dest.Destination{Kind: dest.GmailInsert, Params: map[string]string{}}
	p, got = openTestPicker(h, "labels", gm)
	for i, it := range p.Shown {
		if strings.HasPrefix(it.Words, "Invoices") || it.Value == "INBOX" {
			p.List.Select(i)
		}
	}
	if *got != "INBOX, Label_1" {
		t.Errorf("labels chosen %q", *got)
	}

	h.sb.Server.SetLists(emulator.Lists{})
	p, _ = openTestPicker(h, "profileId", cm)
	if len(p.All) != 0 || !strings.Contains(p.Status.Text(), "no Campaign Manager 360 user profile") {
		t.Errorf("an account with none: %+v %q", p.All, p.Status.Text())
	}
}

// TestLabelNamesBecomeIDs: label names typed by hand are turned into ids
// before anything is uploaded, or refused in a sentence.
func TestLabelNamesBecomeIDs(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	d := dest.Destination{Kind: dest.GmailInsert, BaseURL: h.sb.Url, Params: map[string]string{"labels": "invoices, INBOX"}}
	if !destination.NamesToResolve(d) {
		t.Fatal("names were not noticed")
	}
	type answer struct {
		ids string
		err error
	}
	resolve := func(d dest.Destination) answer {
		var a *answer
		h.d.google.ResolveNames(d, func(r dest.Destination, err error) { a = &answer{r.Params["labels"], err} })
		h.waitFor("the labels", func() bool { return a != nil })
		return *a
	}
	if a := resolve(d); a.err != nil || a.ids != "Label_1, INBOX" {
		t.Errorf("resolved %q, %v", a.ids, a.err)
	}
	d.Params["labels"] = "Receipts"
	if a := resolve(d); a.err == nil || !strings.Contains(unmarked(view.ErrorWords(a.err)), "\u201cReceipts\u201d") {
		t.Errorf("an unknown label: %v", a.err)
	}
	if destination.NamesToResolve(dest.Destination{Kind: dest.GmailInsert, Params: map[string]string{"labels": "INBOX, Label_12"}}) {
		t.Error("ids were taken for names")
	}
}

// TestManagedDestinationsAreReadOnly: the organisation's destinations are
// offered "from your organisation" and cannot be changed or deleted.
func TestManagedDestinationsAreReadOnly(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	system := t.TempDir()
	os.WriteFile(filepath.Join(system, dest.ManagedFile), []byte(`{"version":1,"destinations":[
		{"name":"Team archive","kind":"gmail-insert","params":{"labels":"Label_1"}},
		{"name":"Half done","kind":"cm360","params":{"profileId":"1"}}]}`), 0o644)
	lib, problems, err := destination.OpenLibrary(h.dir, system)
	if err != nil {
		t.Fatal(err)
	}
	h.d.google.Presets = lib
	h.d.google.StartupProblems(problems)
	if msg := h.d.frame.Message.Text(); !strings.Contains(msg, "Half done") || !strings.Contains(msg, "Advertiser") {
		t.Errorf("the window does not say which managed destination is incomplete: %q", msg)
	}
	h.d.bar.RefreshChoices()
	if !containsString(h.d.bar.Picker.Options, "Team archive (from your organisation)") {
		t.Fatalf("choices %v", h.d.bar.Picker.Options)
	}
	changed, _ := lib.(*dest.Library).Get("Team archive")
	changed.Params["labels"] = "SPAM"
	if err := h.d.google.Presets.Put(changed); err == nil || !strings.Contains(view.ErrorWords(err), "from your organisation") {
		t.Errorf("changing a managed destination: %v", err)
	}
	if err := h.d.google.Presets.Delete("Team archive"); err == nil {
		t.Error("a managed destination was deleted")
	}
}

// TestResetKeepsManagedDestinations: Reset forgets the user's saved
// destinations and leaves the organisation's alone, without trying to
// delete them.
func TestResetKeepsManagedDestinations(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	system := t.TempDir()
	os.WriteFile(filepath.Join(system, dest.ManagedFile), []byte(`{"version":1,"destinations":[
		{"name":"Team archive","kind":"gmail-insert","params":{"labels":"Label_1"}}]}`), 0o644)
	lib, _, err := destination.OpenLibrary(h.dir, system)
	if err != nil {
		t.Fatal(err)
	}
	h.d.google.Presets = lib
	if err := lib.Put(dest.Destination{Name: "Mine", Kind: dest.Sandbox}); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	h.d.log = slog.New(slog.NewTextHandler(&log, nil))
	h.d.settings.Reset()
	h.waitFor("the reset", func() bool { return h.d.frame.Message.Text() == view.Say("ui.reset.done") })
	var names []string
	for _, d := range lib.List() {
		names = append(names, d.Name)
	}
	if !slices.Equal(names, []string{"Team archive"}) {
		t.Errorf("after a reset the destinations are %v", names)
	}
	if strings.Contains(log.String(), "reset") {
		t.Errorf("the reset logged a problem: %s", log.String())
	}
}

// TestDroppedDestinationIsImported: a destination exported from the window,
// without its account, and dropped on a window is saved rather than uploaded.
func TestDroppedDestinationIsImported(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	exported := filepath.Join(t.TempDir(), "Banners"+dest.ShareExtension)
	f, err := os.Create(exported)
	if err != nil {
		t.Fatal(err)
	}
	h.d.google.ExportDestination(dest.Destination{Name: "Banners", Kind: dest.CM360, Account: "ada@example.com",
		Params: map[string]string{"profileId": "4180912", "advertiserId": "64032117"}}, f)
	data, err := os.ReadFile(exported)
	if err != nil || strings.Contains(string(data), "ada@example.com") || !strings.Contains(unmarked(h.d.frame.Message.Text()), "Exported Banners") {
		t.Fatalf("exported (%v) %s; message %q", err, data, h.d.frame.Message.Text())
	}
	h.drop(exported)
	if len(h.q.Jobs()) != 0 {
		t.Errorf("the destination file was queued for upload: %v", jobNames(h.q.Jobs()))
	}
	if !containsString(h.d.bar.Picker.Options, "Banners (saved)") || !strings.Contains(unmarked(h.d.frame.Message.Text()), "Imported the destination Banners") {
		t.Errorf("choices %v, message %q", h.d.bar.Picker.Options, h.d.frame.Message.Text())
	}
	h.drop(h.writeFile("Banners-again"+dest.ShareExtension, data))
	if !strings.Contains(unmarked(h.d.frame.Message.Text()), "already a destination called Banners") {
		t.Errorf("a second import says %q", h.d.frame.Message.Text())
	}
}

// TestSetUpPanel: the guided set-up refuses a web client in a sentence,
// takes a desktop one by drop, and ends signed in.
func TestSetUpPanel(t *testing.T) {
	lab := newOrganisationLab(t)
	lab.svc.SystemDir = "" // nobody set Google up for this computer
	h := newHarness(t, harnessOptions{auth: lab.svc})
	h.d.bar.Choose(dest.Destination{Kind: dest.GmailInsert})
	if !h.d.bar.Setup.Visible() {
		t.Fatal("without a client, the window should offer the set-up")
	}
	test.Tap(h.button("Set up Google sign-in\u2026"))
	if h.d.google.Setup == nil {
		t.Fatal("the set-up panel did not open")
	}
	web := h.writeFile("client_secret_web.json", []byte(`{"web":{"client_id":"w.apps.googleusercontent.com","client_secret":"GOCSPX-x"}}`))
	h.drop(web)
	if got := h.d.google.Setup.Status.Text(); !strings.Contains(got, "web application") || h.d.google.Setup.SignIn.Disabled() == false {
		t.Errorf("a web client: %q, sign-in enabled %v", got, !h.d.google.Setup.SignIn.Disabled())
	}
	if len(h.q.Jobs()) != 0 {
		t.Error("the client file was queued for upload")
	}
	h.drop(h.writeFile("client_secret_desktop.json", lab.srv.ClientJSON()))
	if got := h.d.google.Setup.Status.Text(); !strings.Contains(got, "set up") || h.d.google.Setup.SignIn.Disabled() {
		t.Fatalf("a desktop client: %q", got)
	}
	test.Tap(h.d.google.Setup.SignIn)
	h.waitFor("the sign-in", func() bool { return h.d.target.Dest.Account == lab.srv.Email })
	if h.d.bar.Setup.Visible() {
		t.Error("the set-up offer stays after the set-up")
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestGoogleGolden draws the set-up panel and a row waiting for sign-in.
func TestGoogleGolden(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(look.NewTheme(look.ThemeLight))
	r := queuelist.NewJobRow(rowActions{})
	w := test.NewTempWindow(t, r)
	w.Resize(fyne.NewSize(820, r.MinSize().Height+8))
	r.Draw(engine.JobView{
		ID: "job1", Name: "Invoice 12.eml", Size: 48_200, MIME: "message/rfc822", Destination: "gmail-insert",
		DestKind: "gmail-insert", Version: 1, State: engine.Attention, NeedsSignIn: true, Fact: &fact.Fact{Code: fact.SignInToSend},
		Actions: engine.ActionsFor(engine.Attention, engine.Facts{NeedsSignIn: true}),
		Email:   &engine.Email{From: "Ada <ada@example.com>", Subject: "Invoice 12"},
	}, time.Date(2026, 2, 2, 10, 0, 0, 0, time.UTC))
	test.AssertImageMatches(t, "row_signin.png", w.Canvas().Capture())

	f := &view.WindowFrame{App: a}
	p := destination.NewSetupPanel(destination.SetupSide{WindowFrame: f, GoogleSide: &destination.GoogleSide{Frame: f}, FileDialogs: &dialogs.FileDialogs{Frame: f}})
	pw := test.NewTempWindow(t, p.Content)
	pw.Resize(fyne.NewSize(640, p.Content.MinSize().Height+8))
	test.AssertImageMatches(t, "setup_panel.png", pw.Canvas().Capture())
}

// inTopOverlay waits for an object of type T that ok accepts on the
// topmost dialog, and returns it.
func inTopOverlay[T fyne.CanvasObject](h *harness, ok func(T) bool) T {
	h.t.Helper()
	var found T
	h.waitFor(fmt.Sprintf("a %T on the topmost dialog", found), func() bool {
		seen := false
		if top := h.d.win.Canvas().Overlays().Top(); top != nil {
			walk(top, func(o fyne.CanvasObject) {
				if x, is := o.(T); is && !seen && ok(x) {
					found, seen = x, true
				}
			})
		}
		return seen
	})
	return found
}

// TestStaffPickTheAdvertiserByName is a first start as staff: the
// organisation set Google up; the person chooses Campaign Manager 360, signs
// in from the form, picks the profile and the advertiser by their names, and
// the banner goes up. Gmail's labels ask for their own access only when
// their picker opens.
func TestStaffPickTheAdvertiserByName(t *testing.T) {
	lab, h := newOrganisationWindow(t)

	h.d.bar.ShowForm(dest.Destination{Kind: dest.CM360}, true)
	form := inTopOverlay(h, func(*widgets.Form) bool { return true })
	profile := destination.NoteField(form.Items[1]).(*widget.Entry)
	advertiser := destination.NoteField(form.Items[2]).(*widget.Entry)
	chooseFor := func(e *widget.Entry) *widget.Button { return chooserOf(t, form, e) }
	pickNamed := func(name string) { pickFromList(h, name) }

	test.Tap(chooseFor(profile))
	signIn := inTopOverlay(h, func(b *widgets.Button) bool { return b.Text == "Sign in with Google" })
	h.waitFor("the offer to sign in", func() bool { return signIn.Visible() })
	test.Tap(signIn)
	pickNamed("Northwind Media")
	if profile.Text != "4180912" {
		t.Fatalf("profile = %q", profile.Text)
	}
	test.Tap(chooseFor(advertiser))
	pickNamed("Blue Harbor")
	if advertiser.Text != "64032118" {
		t.Fatalf("advertiser = %q", advertiser.Text)
	}
	test.Tap(h.button("Use it"))
	if c := h.d.target.Dest; c.Kind != dest.CM360 || c.Account != lab.srv.Email {
		t.Fatalf("current destination %+v", c)
	}
	h.drop(h.writeFile("banner.png", pngBytes(t, 300, 250, color.RGBA{200, 40, 40, 255})))
	h.waitFor("the banner to go up", func() bool { return h.Shown("banner.png") == engine.Done })
	if objs := h.sb.Server.Objects(); len(objs) != 1 || !strings.Contains(objs[0].Path, "/userprofiles/4180912/creativeAssets/64032118/") {
		t.Errorf("sandbox holds %+v", objs)
	}
	for _, q := range lab.srv.AuthRequests() {
		if strings.Contains(q.Get("scope"), "gmail") {
			t.Errorf("Gmail access was asked for before any label picker: %s", q.Get("scope"))
		}
	}

	// Labels: their own access, asked for now, added to the account's.
	gmail := dest.Destination{Kind: dest.GmailInsert, Account: lab.srv.Email}
	destination.OpenPicker(h.d.bar.Host, gmail.Kind.ListOf("labels"), gmail, "", func(string) {})
	signIn = inTopOverlay(h, func(b *widgets.Button) bool { return b.Text == "Sign in with Google" })
	h.waitFor("the offer to allow labels", func() bool { return signIn.Visible() })
	test.Tap(signIn)
	list := inTopOverlay(h, func(*widget.List) bool { return true })
	h.waitFor("the labels", func() bool { return list.Length() == 11 })
	reqs := lab.srv.AuthRequests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(last.Get("scope"), "gmail.labels") || strings.Contains(last.Get("scope"), "gmail.insert") || last.Get("login_hint") != lab.srv.Email {
		t.Errorf("the labels' sign-in asked for %q as %q", last.Get("scope"), last.Get("login_hint"))
	}
}

// chooserOf is the Choose… button beside the form's entry e.
func chooserOf(t *testing.T, form *widgets.Form, e *widget.Entry) *widget.Button {
	t.Helper()
	for _, it := range form.Items {
		c, ok := it.Widget.(*fyne.Container)
		if ok && destination.PickerEntry(c.Objects[0]) == e {
			b, _ := asButton(c.Objects[0].(*fyne.Container).Objects[1])
			return b
		}
	}
	t.Fatal("no Choose… beside the field")
	return nil
}

// pickFromList searches the open picker for name and picks the one item left.
func pickFromList(h *harness, name string) {
	h.t.Helper()
	search := inTopOverlay(h, func(e *widgets.Entry) bool { return e.PlaceHolder == "Search" })
	list := inTopOverlay(h, func(*widget.List) bool { return true })
	h.waitFor("the list", func() bool { return list.Length() > 0 })
	search.SetText(name)
	if list.Length() != 1 {
		h.t.Fatalf("searching %q leaves %d items", name, list.Length())
	}
	list.Select(0)
}

// formLabels are the labels of a form's settings, in order.
func formLabels(f *widgets.Form) []string {
	var out []string
	for _, it := range f.Items {
		out = append(out, it.Text)
	}
	return out
}

// TestWindowSignsInAsTheCommandLine: the window's queue signs in through
// the same adapter as the command line's (auth.Uploads), sending through
// the queue's transport, so an upload meets several accounts, or none, the
// same way wherever it starts.
func TestWindowSignsInAsTheCommandLine(t *testing.T) {
	svc, tr := &auth.Service{}, engine.DefaultTransport()
	if got, ok := uploadsVia(svc, tr).(auth.Uploads); !ok || got.Service != svc || got.Base != tr {
		t.Fatalf("the window's queue signs in with %#v, want auth.Uploads through its transport", uploadsVia(svc, tr))
	}
}
