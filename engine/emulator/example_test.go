package emulator_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"hoist/engine/emulator"
)

// A test mounts the emulator on loopback, injects a fault, uploads, and reads
// back what the server holds.
func Example() {
	srv, err := emulator.New(emulator.Options{Store: emulator.NewMemoryStore()})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	defer srv.Close() // runs first: it ends stalled requests, which ts.Close waits for

	busy := srv.Inject(emulator.Fault{
		Match:  emulator.Match{Stage: emulator.StageUpload},
		Action: emulator.Answer{Status: http.StatusServiceUnavailable},
	})
	url := ts.URL + "/upload/gmail/v1/users/me/messages?uploadType=media"
	eml := "From: a@example.com\r\nTo: b@example.com\r\nSubject: Hello\r\n\r\nHi.\r\n"
	for range 2 {
		resp, err := http.Post(url, "message/rfc822", strings.NewReader(eml))
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		fmt.Println(resp.StatusCode)
	}
	obj := srv.Objects()[0]
	fmt.Println(busy.Count(), obj.Kind, obj.Action, obj.Name, obj.Size)
	for _, r := range srv.Requests() {
		fmt.Println(r.Method, r.Stage, r.Status, r.Fault)
	}
	// Output:
	// 503
	// 200
	// 1 gmail gmail.users.messages.insert Hello 63
	// POST upload 503 answer 503
	// POST upload 200
}
