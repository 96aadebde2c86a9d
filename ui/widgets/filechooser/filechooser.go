// Package filechooser asks the desktop's own file dialog for files and
// folders, through the XDG desktop portal (org.freedesktop.portal.FileChooser)
// on the session bus: the dialog the user knows, with previews and several
// files at once.
package filechooser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"
	"sync/atomic"

	"github.com/godbus/dbus/v5"
)

const (
	portalName   = "org.freedesktop.portal.Desktop"
	portalPath   = "/org/freedesktop/portal/desktop"
	chooser      = "org.freedesktop.portal.FileChooser"
	requestIface = "org.freedesktop.portal.Request"
)

// ErrNoPortal says the desktop offers no file chooser portal; the caller
// uses a dialog of its own then.
var ErrNoPortal = errors.New("the desktop has no file chooser portal")

// Options say what to ask for.
type Options struct {
	Title     string   // the dialog's title
	Multiple  bool     // several files (or folders) at once
	Directory bool     // folders, not files
	Folder    string   // where the dialog opens; "" lets the desktop choose
	Parent    string   // the parent window's identifier ("x11:1a2b"), or ""
	Filters   []Filter // the kinds of file offered; none: any file
	Save      bool     // a file to write, not files to read
	Name      string   // for Save: the name the dialog suggests
}

// Filter is a kind of file the dialog offers, by its words and its name's
// patterns ("*.json").
type Filter struct {
	Name     string
	Patterns []string
}

// Matches reports whether a file's name fits one of the filters, or there
// are none.
func Matches(filters []Filter, name string) bool {
	if len(filters) == 0 {
		return true
	}
	for _, f := range filters {
		for _, p := range f.Patterns {
			if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(name)); ok {
				return true
			}
		}
	}
	return false
}

// portalFilter is a filter as the portal takes it: a(sa(us)), 0 for a glob.
type portalFilter struct {
	Name  string
	Rules []portalRule
}

type portalRule struct {
	Kind    uint32
	Pattern string
}

var tokens atomic.Uint64

// Open shows the desktop's file dialog and returns the chosen paths, or
// none when the user canceled. It returns ErrNoPortal when the session bus
// has no file chooser portal. With o.Save it asks for one file to write
// instead (the portal's SaveFile).
func Open(ctx context.Context, conn *dbus.Conn, o Options) ([]string, error) {
	names := conn.Names()
	if len(names) == 0 {
		return nil, ErrNoPortal
	}
	token := fmt.Sprintf("hoist%d", tokens.Add(1))
	// The request's object path is known before the call, so that its
	// answer cannot arrive before Hoist listens for it.
	sender := strings.ReplaceAll(strings.TrimPrefix(names[0], ":"), ".", "_")
	handle := dbus.ObjectPath(portalPath + "/request/" + sender + "/" + token)
	match := []dbus.MatchOption{dbus.WithMatchObjectPath(handle), dbus.WithMatchInterface(requestIface), dbus.WithMatchMember("Response")}
	if err := conn.AddMatchSignalContext(ctx, match...); err != nil {
		return nil, fmt.Errorf("listening for the file dialog's answer: %w", err)
	}
	defer conn.RemoveMatchSignal(match...)
	signals := make(chan *dbus.Signal, 4)
	conn.Signal(signals)
	defer conn.RemoveSignal(signals)

	opts := map[string]dbus.Variant{
		"handle_token": dbus.MakeVariant(token),
		"modal":        dbus.MakeVariant(true),
	}
	method := chooser + ".OpenFile"
	if o.Save {
		method = chooser + ".SaveFile"
		if o.Name != "" {
			opts["current_name"] = dbus.MakeVariant(o.Name)
		}
	} else {
		opts["multiple"] = dbus.MakeVariant(o.Multiple)
		opts["directory"] = dbus.MakeVariant(o.Directory)
	}
	if o.Folder != "" {
		opts["current_folder"] = dbus.MakeVariant(append([]byte(o.Folder), 0))
	}
	if len(o.Filters) > 0 {
		var fs []portalFilter
		for _, f := range o.Filters {
			pf := portalFilter{Name: f.Name}
			for _, p := range f.Patterns {
				pf.Rules = append(pf.Rules, portalRule{0, p})
			}
			fs = append(fs, pf)
		}
		opts["filters"] = dbus.MakeVariant(fs)
	}
	var got dbus.ObjectPath
	call := conn.Object(portalName, portalPath).CallWithContext(ctx, method, 0, o.Parent, o.Title, opts)
	if err := call.Store(&got); err != nil {
		var de dbus.Error
		if errors.As(err, &de) && noPortal(de.Name) {
			return nil, ErrNoPortal
		}
		return nil, fmt.Errorf("opening the file dialog: %w", err)
	}
	if got != handle { // an older portal chose its own path
		old := []dbus.MatchOption{dbus.WithMatchObjectPath(got), dbus.WithMatchInterface(requestIface), dbus.WithMatchMember("Response")}
		if err := conn.AddMatchSignalContext(ctx, old...); err != nil {
			return nil, fmt.Errorf("listening for the file dialog's answer: %w", err)
		}
		defer conn.RemoveMatchSignal(old...)
		handle = got
	}
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case s, ok := <-signals:
			if !ok {
				return nil, errors.New("the session bus closed before the file dialog answered")
			}
			if s.Path != handle || s.Name != requestIface+".Response" {
				continue
			}
			return answer(s.Body)
		}
	}
}

// noPortal tells the D-Bus errors that mean there is no portal to ask.
func noPortal(name string) bool {
	switch name {
	case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
		"org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownInterface",
		"org.freedesktop.DBus.Error.UnknownObject":
		return true
	}
	return false
}

// answer reads a Response signal: 0 and the chosen URIs, 1 canceled, 2 failed.
func answer(body []any) ([]string, error) {
	if len(body) != 2 {
		return nil, errors.New("the file dialog answered in an unknown shape")
	}
	code, _ := body[0].(uint32)
	switch code {
	case 0:
	case 1:
		return nil, nil
	default:
		return nil, errors.New("the file dialog ended without files")
	}
	results, _ := body[1].(map[string]dbus.Variant)
	var uris []string
	if v, ok := results["uris"]; ok {
		_ = v.Store(&uris)
	}
	var paths []string
	for _, u := range uris {
		p, err := url.Parse(u)
		if err != nil || p.Scheme != "file" {
			continue // the portal only hands out local files; anything else is left out
		}
		paths = append(paths, p.Path)
	}
	return paths, nil
}
