package filechooser

import (
	"bufio"
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// privateBus starts a D-Bus daemon of the test's own and returns its address.
func privateBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Skip("dbus-daemon is not installed (package dbus)")
	}
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(addr)
}

func connect(t *testing.T, addr string) *dbus.Conn {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// fakePortal answers OpenFile as the desktop's portal does: a request
// handle at once, then a Response signal on it with the chosen files.
type fakePortal struct {
	conn  *dbus.Conn
	uris  []string
	code  uint32
	asked chan map[string]dbus.Variant
}

func (p *fakePortal) OpenFile(sender dbus.Sender, parent, title string, opts map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	var token string
	_ = opts["handle_token"].Store(&token)
	who := strings.ReplaceAll(strings.TrimPrefix(string(sender), ":"), ".", "_")
	handle := dbus.ObjectPath(portalPath + "/request/" + who + "/" + token)
	p.asked <- opts
	go func() {
		_ = p.conn.Emit(handle, requestIface+".Response", p.code, map[string]dbus.Variant{"uris": dbus.MakeVariant(p.uris)})
	}()
	return handle, nil
}

// SaveFile answers as OpenFile does, one file to write.
func (p *fakePortal) SaveFile(sender dbus.Sender, parent, title string, opts map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	opts["method"] = dbus.MakeVariant("SaveFile")
	return p.OpenFile(sender, parent, title, opts)
}

func servePortal(t *testing.T, addr string, code uint32, uris []string) *fakePortal {
	t.Helper()
	conn := connect(t, addr)
	p := &fakePortal{conn: conn, uris: uris, code: code, asked: make(chan map[string]dbus.Variant, 1)}
	if err := conn.Export(p, portalPath, chooser); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName(portalName, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("could not own %s: %v %v", portalName, reply, err)
	}
	return p
}

func TestOpenReturnsEveryChosenFile(t *testing.T) {
	addr := privateBus(t)
	want := []string{"/home/sam/Pictures/one.jpg", "/home/sam/Pictures/two photo.png", "/home/sam/Pictures/تقرير.png"}
	var uris []string
	for _, p := range want {
		uris = append(uris, "file://"+strings.ReplaceAll(p, " ", "%20"))
	}
	p := servePortal(t, addr, 0, append(uris, "https://example.com/not-local.png"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got, err := Open(ctx, connect(t, addr), Options{Title: "Add files", Multiple: true, Folder: "/home/sam/Pictures"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Open = %q, want %q", got, want)
	}
	opts := <-p.asked
	var multiple, directory bool
	var folder []byte
	_ = opts["multiple"].Store(&multiple)
	_ = opts["directory"].Store(&directory)
	_ = opts["current_folder"].Store(&folder)
	if !multiple || directory || string(folder) != "/home/sam/Pictures\x00" {
		t.Errorf("asked with multiple=%v directory=%v folder=%q", multiple, directory, folder)
	}
}

func TestOpenFolders(t *testing.T) {
	addr := privateBus(t)
	p := servePortal(t, addr, 0, []string{"file:///home/sam/Documents/Invoices", "file:///home/sam/Documents/Letters"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got, err := Open(ctx, connect(t, addr), Options{Multiple: true, Directory: true})
	if err != nil || len(got) != 2 {
		t.Fatalf("Open = %q, %v; want two folders", got, err)
	}
	var directory bool
	_ = (<-p.asked)["directory"].Store(&directory)
	if !directory {
		t.Error("folders were asked for without directory=true")
	}
}

func TestCanceledDialogGivesNothing(t *testing.T) {
	addr := privateBus(t)
	servePortal(t, addr, 1, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got, err := Open(ctx, connect(t, addr), Options{Multiple: true})
	if err != nil || got != nil {
		t.Errorf("Open = %q, %v; want nothing and no error", got, err)
	}
}

func TestNoPortal(t *testing.T) {
	addr := privateBus(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := Open(ctx, connect(t, addr), Options{}); !errors.Is(err, ErrNoPortal) {
		t.Errorf("with no portal on the bus, Open returned %v, want ErrNoPortal", err)
	}
}

// TestSaveAsksTheSaveDialog: a file to write is asked of the portal's
// SaveFile, with the suggested name whole in Persian and the filter, and
// the written path comes back decoded.
func TestSaveAsksTheSaveDialog(t *testing.T) {
	addr := privateBus(t)
	p := servePortal(t, addr, 0, []string{"file:///home/sam/Documents/%D9%85%D9%82%D8%B5%D8%AF%20%D9%86%D9%87%D8%A7%DB%8C%DB%8C.hoist"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got, err := Open(ctx, connect(t, addr), Options{Save: true, Name: "مقصد نهایی.hoist",
		Filters: []Filter{{Name: "مقصد", Patterns: []string{"*.hoist"}}}})
	if want := []string{"/home/sam/Documents/مقصد نهایی.hoist"}; err != nil || !slices.Equal(got, want) {
		t.Fatalf("Open = %q, %v; want %q", got, err, want)
	}
	opts := <-p.asked
	var method, name string
	var filters []portalFilter
	_ = opts["method"].Store(&method)
	_ = opts["current_name"].Store(&name)
	if err := opts["filters"].Store(&filters); err != nil {
		t.Fatalf("filters: %v (%s)", err, opts["filters"].Signature())
	}
	if method != "SaveFile" || name != "مقصد نهایی.hoist" {
		t.Errorf("asked %s with current_name %q", method, name)
	}
	if _, many := opts["multiple"]; many {
		t.Error("a save dialog was asked for several files")
	}
	if len(filters) != 1 || filters[0].Name != "مقصد" || len(filters[0].Rules) != 1 || filters[0].Rules[0] != (portalRule{0, "*.hoist"}) {
		t.Errorf("filters = %+v (%s)", filters, opts["filters"].Signature())
	}
}

func TestMatches(t *testing.T) {
	json := []Filter{{Name: "JSON", Patterns: []string{"*.json"}}}
	for name, want := range map[string]bool{"client_secret_1.json": true, "کلاینت.JSON": true, "notes.txt": false, "json": false} {
		if Matches(json, name) != want {
			t.Errorf("Matches(%q) = %v", name, !want)
		}
	}
	if !Matches(nil, "anything") {
		t.Error("no filter refuses a file")
	}
}
