package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"hoist/engine/emulator"
)

// TestSendToCloudStorage: `hoist send --to storage --bucket … --base-url
// sandbox` puts each file in the bucket, under the folder, named after it,
// and says where; the same name again is left alone unless --replace true.
func TestSendToCloudStorage(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	srv, err := emulator.New(emulator.Options{Store: emulator.NewMemoryStore()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	url, stop, err := srv.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	t.Setenv(SandboxAddrEnv, strings.TrimPrefix(url, "http://"))

	banner := l.png("banner.png")
	args := []string{"--to", "storage", "--bucket", "northwind-banners", "--folder", "banners/2026", "--storage-class", "nearline", "--base-url", "sandbox"}
	code, stdout, stderr := l.send(append(args, banner)...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	objs := srv.Objects()
	if len(objs) != 1 || objs[0].Path != "/upload/storage/v1/b/northwind-banners/o" || objs[0].Name != "banners/2026/banner.png" || objs[0].SHA256 != fileSHA(t, banner) {
		t.Fatalf("stored %+v", objs)
	}
	want := "✓ banner.png: Saved in the bucket northwind-banners. Name: banners/2026/banner.png. Id: northwind-banners/banners/2026/banner.png/"
	if !strings.Contains(stdout, want) || !strings.Contains(stdout, "Storage class: Nearline — read about once a month (NEARLINE).") ||
		!strings.Contains(stdout, "Address: "+url+"/sandbox/objects/"+objs[0].ID) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}

	code, stdout, _ = l.send(append(args, "--again", banner)...) // the same bytes: sent again only when asked
	if code != exitFailed || !strings.Contains(stdout, "✗ banner.png: The bucket northwind-banners already holds an object named banners/2026/banner.png, and this destination does not replace objects, so banner.png was not sent.") {
		t.Errorf("the same name again: exit %d\n%s", code, stdout)
	}
	if n := len(srv.Objects()); n != 1 {
		t.Fatalf("%d objects", n)
	}
	code, stdout, stderr = l.send(append(args, "--replace", "true", banner)...)
	if code != exitOK || len(srv.Objects()) != 2 {
		t.Errorf("replacing: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestSendHelpOffersCloudStorage: the command line's help names the kind
// and its flags, made from its fields.
func TestSendHelpOffersCloudStorage(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out, errOut bytes.Buffer
	Send(ctx, []string{"--help"}, &out, &errOut)
	help := out.String() + errOut.String()
	for _, want := range []string{"storage", "-bucket", "-project", "-storage-class", "-replace",
		"Google Cloud Storage: The bucket's name, like northwind-banners, or its gs:// address.", "STANDARD, NEARLINE, COLDLINE, ARCHIVE"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
}
