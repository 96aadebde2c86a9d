package ui

import (
	"context"
	"strings"
	"testing"

	"hoist/engine/proxy"
)

// TestWindowAsksForProxyLogin: an office proxy that asks for a sign-in is
// asked about in the window, naming it and where its setting came from; the
// name and password typed are the answer, and Cancel gives none.
func TestWindowAsksForProxyLogin(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	var asker proxyAsker
	asker.set(h.d.askProxyLogin)
	type login struct {
		user, password string
		ok             bool
	}
	for _, c := range []struct {
		Name string
		yes  bool
		want login
	}{{"OK", true, login{"ali", "s3cret", true}}, {"Cancel", false, login{}}} {
		t.Run(c.Name, func(t *testing.T) {
			h.d.proxyLogin = nil
			got := make(chan login, 1)
			go func() {
				u, p, ok := asker.Ask(context.Background(), "proxy.corp:8080", proxy.FromWindows)
				got <- login{u, p, ok}
			}()
			h.waitFor("the question", func() bool { return h.d.proxyLogin != nil })
			dlg := h.d.proxyLogin
			text := h.dialogText()
			if !strings.Contains(text, "proxy.corp:8080") || !strings.Contains(text, "from Windows settings") {
				t.Errorf("the question says %q", text)
			}
			dlg.user.SetText("ali")
			dlg.password.SetText("s3cret")
			dlg.q.Answer(c.yes)
			if a := <-got; a.ok != c.want.ok || (c.yes && a != c.want) {
				t.Errorf("answer %+v, want %+v", a, c.want)
			}
		})
	}
}
