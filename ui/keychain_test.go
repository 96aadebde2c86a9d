package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hoist/auth"
	"hoist/auth/authtest"
	"hoist/engine/dest"
	"hoist/ui/widgets"
)

// lockedKeychain stands for a keychain that stays locked.
type lockedKeychain struct{}

func (lockedKeychain) Get(context.Context, string) (auth.Grant, error) {
	return auth.Grant{}, auth.ErrKeychainLocked
}
func (lockedKeychain) Set(context.Context, string, auth.Grant) error { return auth.ErrKeychainLocked }
func (lockedKeychain) Delete(context.Context, string) error          { return auth.ErrKeychainLocked }

// overlayTexts is every sentence the dialogs on top of the window say.
func overlayTexts(h *harness) string {
	var out []string
	for _, o := range h.d.win.Canvas().Overlays().List() {
		walk(o, func(o fyne.CanvasObject) {
			switch t := o.(type) {
			case *widgets.Paragraph:
				out = append(out, t.Text())
			case *widgets.Label:
				out = append(out, t.Text())
			}
		})
	}
	return strings.Join(out, " | ")
}

// TestSignInForThisSessionOnly: where the keychain cannot keep a sign-in,
// the window says what is really missing — no keychain service, or one
// that stayed locked — and offers to keep the sign-in until Hoist quits;
// the account then says so and nothing of it is written to disk.
func TestSignInForThisSessionOnly(t *testing.T) {
	for _, c := range []struct {
		Name        string
		store       auth.TokenStore
		says, never string
		other       string
	}{
		{"no keychain", noKeychain{}, "no keychain service is running", "locked", "Keep it in a file"},
		{"locked keychain", lockedKeychain{}, "stayed locked", "no keychain service", "Try again"},
	} {
		t.Run(c.Name, func(t *testing.T) {
			srv := authtest.NewServer(t)
			browser := &authtest.Browser{}
			t.Cleanup(func() { browser.Wait() })
			dir := t.TempDir()
			svc := &auth.Service{
				Store: c.store, ConfigDir: dir, ClientJSON: srv.ClientJSON(),
				Endpoints: auth.EndpointsAt(srv.URL), OpenBrowser: browser.Open,
				AllowedHosts: []string{srv.Host()},
			}
			h := newHarness(t, harnessOptions{auth: svc})
			h.d.bar.Choose(dest.Destination{Kind: dest.GmailInsert})
			test.Tap(h.d.bar.SignIn)
			h.waitFor("the question", func() bool { return h.findButton("Keep it until Hoist quits") != nil })
			said := overlayTexts(h)
			if !strings.Contains(said, c.says) || strings.Contains(said, c.never) {
				t.Errorf("the question says %q; want it to say %q and never %q", said, c.says, c.never)
			}
			if h.findButton(c.other) == nil {
				t.Errorf("the question does not offer %q", c.other)
			}
			if !h.d.bar.SignIn.Visible() || h.d.bar.SignIn.Disabled() {
				t.Error("the Sign in button is greyed out or gone")
			}
			test.Tap(h.button("Keep it until Hoist quits"))
			h.waitFor("the account to appear", func() bool { return h.d.bar.Accounts.Selected == srv.Email })
			if !h.d.bar.InFile.Visible() || !strings.Contains(h.d.bar.InFile.Text, "until Hoist quits") {
				t.Errorf("the account's note is %q (shown: %v)", h.d.bar.InFile.Text, h.d.bar.InFile.Visible())
			}
			filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
				if err == nil && !e.IsDir() {
					if b, _ := os.ReadFile(p); strings.Contains(string(b), srv.Email) {
						t.Errorf("%s keeps the account signed in for this session only", p)
					}
				}
				return nil
			})
		})
	}
}
