package cli

import (
	"net/http"
	"testing"
	"time"

	"hoist/auth"
	"hoist/auth/authtest"
	"hoist/engine"
)

// hoist send's uploads to Google go through the transport the queue has
// (HTTP/1.1, big writes, --ca-file), under the account's authorization.
func TestAccountClientsSendThroughTheQueuesTransport(t *testing.T) {
	tr := engine.DefaultTransport()
	if got, ok := accountsFor(false, tr).(auth.Uploads); !ok || got.Base != tr || got.Service != sharedAuth() {
		t.Fatalf("accountsFor gives %#v, want auth.Uploads sending through the queue's transport", got)
	}
	if got := accountsFor(true, tr); got != nil {
		t.Errorf("with --no-auth accountsFor gives %#v, want none", got)
	}

	srv := authtest.NewServer(t)
	browser := &authtest.Browser{}
	t.Cleanup(func() { browser.Wait() })
	svc := &auth.Service{
		ConfigDir:      t.TempDir(),
		ClientJSON:     srv.ClientJSON(),
		Endpoints:      auth.EndpointsAt(srv.URL),
		OpenBrowser:    browser.Open,
		ConsentTimeout: time.Minute,
		AllowedHosts:   []string{srv.Host()},
	}
	file, err := svc.FileStore()
	if err != nil {
		t.Fatal(err)
	}
	svc.Store, svc.AllowFileStore = file, true
	if _, err := svc.Login(t.Context(), nil); err != nil {
		t.Fatal(err)
	}

	base := &authtest.Counting{Base: tr}
	client, err := auth.Uploads{Service: svc, Base: base}.Client(t.Context(), "", nil) // the only account
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Post(srv.URL+"/api/upload", "application/octet-stream", http.NoBody)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || base.Requests() != 1 {
		t.Errorf("status %d, %d requests through the queue's transport; want 200, 1", resp.StatusCode, base.Requests())
	}
	if auths := srv.APIAuthorizations(); len(auths) != 1 || auths[0] == "" {
		t.Errorf("the API saw %d requests, want 1 signed in", len(auths))
	}
}
