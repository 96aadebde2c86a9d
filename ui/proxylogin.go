package ui

import (
	"context"
	"strings"
	"sync"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"hoist/engine/proxy"
	"hoist/ui/view"
	"hoist/ui/widgets"
	"hoist/words"
)

// proxyAsker is the office network's question for a proxy's name and
// password: it is set before any request goes out, and answered by the
// window once it is open (no one, before).
type proxyAsker struct {
	mu     sync.Mutex
	ask    proxy.Ask
	notice func(error) // says in the window why the PAC script cannot be used
}

func (a *proxyAsker) setNotice(notice func(error)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.notice = notice
}

// Notice says a problem of the office network in the window, once it is open.
func (a *proxyAsker) Notice(err error) {
	a.mu.Lock()
	notice := a.notice
	a.mu.Unlock()
	if notice != nil {
		notice(err)
	}
}

func (a *proxyAsker) set(ask proxy.Ask) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ask = ask
}

// Ask asks through the window, or answers no one can be asked.
func (a *proxyAsker) Ask(ctx context.Context, at string, from proxy.Origin) (string, string, bool) {
	a.mu.Lock()
	ask := a.ask
	a.mu.Unlock()
	if ask == nil {
		return "", "", false
	}
	return ask(ctx, at, from)
}

// proxyLoginDialog asks for an office proxy's name and password.
type proxyLoginDialog struct {
	q              *widgets.Question
	user, password *widget.Entry
}

// askProxyLogin asks in the window, from any goroutine, and waits for the
// answer or for ctx to end.
func (d *desk) askProxyLogin(ctx context.Context, at string, from proxy.Origin) (string, string, bool) {
	type login struct {
		user, password string
		ok             bool
	}
	answer := make(chan login, 1)
	d.frame.Later(func() {
		l := view.Speaking()
		dlg := &proxyLoginDialog{user: widget.NewEntry(), password: widget.NewPasswordEntry()}
		form := widgets.NewForm(
			&widget.FormItem{Text: view.Visual(label("proxy.user")), Widget: dlg.user},
			&widget.FormItem{Text: view.Visual(label("proxy.password")), Widget: dlg.password},
		)
		text := l.Say("proxy.ask", words.Args{"Proxy": l.Isolate(at), "From": l.ProxyOrigin(string(from))})
		content := container.NewVBox(widgets.SentenceBox(text), form)
		dlg.q = widgets.NewQuestion(view.Say("ui.settings.network"), content, lang.L("OK"), lang.L("Cancel"), func(yes bool) {
			answer <- login{dlg.user.Text, dlg.password.Text, yes && dlg.user.Text != ""}
		}, d.win)
		d.proxyLogin = dlg
		d.frame.Open(dlg.q)
		d.win.Canvas().Focus(dlg.user)
	})
	select {
	case a := <-answer:
		return a.user, a.password, a.ok
	case <-ctx.Done():
		return "", "", false
	}
}

// label is a prompt's words as a form's label, without the colon the
// terminal's prompt ends with.
func label(key string) string { return strings.TrimRight(view.Say(key), ": ") }
