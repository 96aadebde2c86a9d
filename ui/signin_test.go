package ui

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/auth"
	"hoist/auth/authtest"
	"hoist/engine/dest"
	"hoist/ui/destination"
	"hoist/ui/widgets"
)

// grants keeps sign-ins in memory, standing for the keychain.
type grants struct {
	mu sync.Mutex
	m  map[string]auth.Grant
}

func (g *grants) Get(_ context.Context, account string) (auth.Grant, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	gr, ok := g.m[account]
	if !ok {
		return auth.Grant{}, auth.ErrNotSignedIn
	}
	return gr, nil
}

func (g *grants) Set(_ context.Context, account string, gr auth.Grant) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.m[account] = gr
	return nil
}

func (g *grants) Delete(_ context.Context, account string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.m, account)
	return nil
}

// TestSignInAndOut signs in through the button with a stand-in for Google's
// sign-in service and the user's browser, then signs out.
func TestSignInAndOut(t *testing.T) {
	srv := authtest.NewServer(t)
	browser := &authtest.Browser{}
	t.Cleanup(func() { browser.Wait() })
	svc := &auth.Service{
		Store:        &grants{m: map[string]auth.Grant{}},
		ConfigDir:    t.TempDir(),
		ClientJSON:   srv.ClientJSON(),
		Endpoints:    auth.EndpointsAt(srv.URL),
		OpenBrowser:  browser.Open,
		AllowedHosts: []string{srv.Host()},
	}
	h := newHarness(t, harnessOptions{auth: svc})
	h.d.bar.Choose(dest.Destination{Kind: dest.GmailInsert})
	if h.d.bar.Setup.Visible() {
		t.Error("with a Google client set up, the sandbox offer should not show")
	}
	if !h.d.bar.SignIn.Visible() || h.d.bar.SignOut.Visible() {
		t.Fatal("before signing in, the bar should offer Sign in and no Sign out")
	}

	test.Tap(h.d.bar.SignIn)
	h.waitFor("the account to appear", func() bool { return h.d.bar.Accounts.Selected == srv.Email })
	if h.d.target.Dest.Account != srv.Email {
		t.Errorf("destination account = %q, want %q", h.d.target.Dest.Account, srv.Email)
	}
	if !h.d.bar.SignOut.Visible() {
		t.Error("once signed in, the bar should offer Sign out")
	}

	test.Tap(h.d.bar.SignOut)
	test.Tap(h.button("Yes"))
	h.waitFor("the account to go", func() bool { return len(h.d.bar.Accounts.Options) == 0 })
	if h.d.target.Dest.Account != "" {
		t.Errorf("after signing out, the destination still uses %q", h.d.target.Dest.Account)
	}
}

// noKeychain stands for a computer whose keychain does not answer.
type noKeychain struct{}

func (noKeychain) Get(context.Context, string) (auth.Grant, error) {
	return auth.Grant{}, auth.ErrNoKeychain
}
func (noKeychain) Set(context.Context, string, auth.Grant) error { return auth.ErrNoKeychain }
func (noKeychain) Delete(context.Context, string) error          { return auth.ErrNoKeychain }

// TestSignInWithoutKeychainOrBrowser: with no keychain, the window asks
// before keeping the sign-in in a file; with no browser, it shows the
// address to open by hand. The account then says where its sign-in is kept.
func TestSignInWithoutKeychainOrBrowser(t *testing.T) {
	srv := authtest.NewServer(t)
	browser := &authtest.Browser{}
	t.Cleanup(func() { browser.Wait() })
	svc := &auth.Service{
		Store:        noKeychain{},
		ConfigDir:    t.TempDir(),
		ClientJSON:   srv.ClientJSON(),
		Endpoints:    auth.EndpointsAt(srv.URL),
		OpenBrowser:  func(string) error { return errors.New("xdg-open: no method available") },
		AllowedHosts: []string{srv.Host()},
	}
	h := newHarness(t, harnessOptions{auth: svc})
	h.d.bar.Choose(dest.Destination{Kind: dest.GmailInsert})
	test.Tap(h.d.bar.SignIn)
	h.waitFor("the question about a file", func() bool { return h.findButton("Keep it in a file") != nil })
	test.Tap(h.button("Keep it in a file"))

	var address string
	h.waitFor("the sign-in address", func() bool {
		for _, o := range h.d.win.Canvas().Overlays().List() {
			walk(o, func(o fyne.CanvasObject) {
				if e, ok := o.(*widget.Entry); ok && strings.HasPrefix(e.Text, srv.URL+"/authorize?") {
					address = e.Text
				}
			})
		}
		return address != ""
	})
	if said := overlayTexts(h); strings.Contains(said, "browser shows") || !strings.Contains(said, "could not open your web browser") {
		t.Errorf("with no browser opened, the sign-in says %q", said)
	}
	test.Tap(h.button("Copy the address"))
	if got := h.app.Clipboard().Content(); got != address {
		t.Errorf("copied %q, want the address", got)
	}
	browser.Open(address) // the user opens it by hand
	h.waitFor("the account to appear", func() bool { return h.d.bar.Accounts.Selected == srv.Email })
	if !h.d.bar.InFile.Visible() {
		t.Error("an account whose sign-in is kept in a file does not say so")
	}
	accts, err := svc.Accounts(t.Context())
	if err != nil || len(accts) != 1 || !accts[0].LessSafe {
		t.Errorf("accounts = %+v, %v; want one kept in a file", accts, err)
	}
}

// TestDestinationFormChecksAsYouType fills in Campaign Manager 360's settings:
// a wrong value is pointed out at once, and the form makes the destination
// current once it is right.
func TestDestinationFormChecksAsYouType(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.bar.ShowForm(dest.Destination{Kind: dest.CM360}, true)
	var main *widgets.Form
	for _, o := range h.d.win.Canvas().Overlays().List() {
		walk(o, func(o fyne.CanvasObject) {
			if f, ok := o.(*widgets.Form); ok && main == nil { // the main form; Advanced has its own
				main = f
			}
		})
	}
	form := main
	if form == nil {
		t.Fatal("no form on screen")
	}
	item := func(label string) *widget.FormItem {
		t.Helper()
		for _, it := range form.Items {
			if it.Text == label {
				return it
			}
		}
		t.Fatalf("no field %q", label)
		return nil
	}
	// note is the line under a field: its help, or what is wrong with it.
	note := func(label string) *widgets.Paragraph { // a paragraph wraps, so a long note is never cut off
		t.Helper()
		return item(label).Widget.(*fyne.Container).Objects[1].(*widgets.Paragraph)
	}
	failing := func(r *widgets.Paragraph) bool {
		return r.ColorName == theme.ColorNameError
	}
	profile := destination.NoteField(item("User profile ID *")).(*widget.Entry)
	advertiser := destination.NoteField(item("Advertiser ID *")).(*widget.Entry)
	help := "The number of your Campaign Manager 360 user profile."
	if got := note("User profile ID *").Text(); got != help {
		t.Errorf("before typing, the note says %q, want the help %q", got, help)
	}
	test.Type(profile, "abc")
	if err := profile.Validate(); err == nil {
		t.Error("a profile ID of letters should be pointed out")
	}
	if r := note("User profile ID *"); r.Text() == help || !failing(r) {
		t.Errorf("after typing letters, the note says %q, in red: %v; want what is wrong, in red", r.Text(), failing(r))
	}
	profile.SetText("12345")
	if err := profile.Validate(); err != nil {
		t.Errorf("profile 12345: %v", err)
	}
	if r := note("User profile ID *"); r.Text() != help || failing(r) {
		t.Errorf("once the profile is right, the note says %q, want the help again", r.Text())
	}
	test.Type(advertiser, "678")
	assetType := destination.NoteField(item("Asset type")).(*widgets.Select)
	if !slices.Contains(assetType.Options, "Video (VIDEO)") || slices.Contains(assetType.Options, "VIDEO") {
		t.Errorf("asset types offered as %q, want them in words", assetType.Options)
	}
	assetType.SetSelected("Video (VIDEO)")
	test.Tap(h.button("Use it"))
	got := h.d.target.Dest
	if got.Params["assetType"] != "VIDEO" {
		t.Errorf("choosing %q set the asset type to %q, want VIDEO", "Video (VIDEO)", got.Params["assetType"])
	}
	if got.Kind != dest.CM360 || got.Params["profileId"] != "12345" || got.Params["advertiserId"] != "678" {
		t.Errorf("current destination = %+v", got)
	}
}

func TestWindowLogScrubsSecrets(t *testing.T) {
	session := "http://127.0.0.1:8765/upload/gmail/v1/users/me/messages?uploadType=resumable&upload_id=ADPycdsecretsessionid"
	for _, passed := range []bool{false, true} {
		var out bytes.Buffer
		var log *slog.Logger
		if passed { // a caller's own logger, which knows nothing of secrets
			log = windowLogger(slog.New(slog.NewTextHandler(&out, nil)), io.Discard)
		} else {
			log = windowLogger(nil, &out)
		}
		log.Error("upload failed", "err", errors.New("Put \""+session+"\": connection reset"), "header", "Bearer ya29.a0secrettoken")
		got := out.String()
		if !strings.Contains(got, "upload failed") {
			t.Fatalf("nothing logged: %q", got)
		}
		if strings.Contains(got, "secretsessionid") || strings.Contains(got, "ya29.a0secrettoken") {
			t.Errorf("the window's log shows a secret: %s", got)
		}
	}
}
