// Package bench holds benchmarks of Hoist and tests that put Google's own Go
// client against the emulator, so that the emulator is known to speak the
// protocol the way Google's servers do.
package bench

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	dfareporting "google.golang.org/api/dfareporting/v5"
	gmail "google.golang.org/api/gmail/v1"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
	storage "google.golang.org/api/storage/v1"

	"hoist/engine/emulator"
)

// sandbox is an emulator on loopback.
func sandbox(t *testing.T) (*emulator.Server, *httptest.Server) {
	t.Helper()
	srv, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	return srv, ts
}

func payload(n int, seed uint64) []byte {
	b := make([]byte, n)
	_, _ = rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), 9}).Read(b)
	return b
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// stored finds the object the emulator made of an upload and checks its bytes.
func stored(t *testing.T, srv *emulator.Server, id string, want []byte) emulator.Object {
	t.Helper()
	obj, ok := srv.Object(id)
	if !ok {
		t.Fatalf("the emulator holds no object %q", id)
	}
	if obj.Size != int64(len(want)) || obj.SHA256 != sha(want) {
		t.Fatalf("object %s: %d bytes, SHA-256 %s; sent %d bytes, SHA-256 %s", id, obj.Size, obj.SHA256, len(want), sha(want))
	}
	rc, err := srv.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	got, err := io.ReadAll(rc)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("object %s reads back different bytes (%v)", id, err)
	}
	return obj
}

// objectByName finds an object by the name it was uploaded under.
func objectByName(t *testing.T, srv *emulator.Server, name string) emulator.Object {
	t.Helper()
	for _, o := range srv.Objects() {
		if o.Name == name {
			return o
		}
	}
	t.Fatalf("the emulator holds no object named %q", name)
	return emulator.Object{}
}

func TestStorageClientUploads(t *testing.T) {
	const chunk = 256 << 10
	for _, tc := range []struct {
		name       string
		size       int
		uploadType string // what Google's client chooses for this size
		chunks     int    // requests after the session start
	}{
		{"empty", 0, "multipart", 0},
		{"one byte", 1, "multipart", 0},
		{"just under a chunk", chunk - 1, "multipart", 0},
		{"exactly a chunk", chunk, "resumable", 2}, // the last request is empty: "bytes */262144"
		{"a chunk and a byte", chunk + 1, "resumable", 2},
		{"three chunks exactly", 3 * chunk, "resumable", 4},
		{"several chunks and a tail", 5*chunk + 12345, "resumable", 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, ts := sandbox(t)
			ctx := context.Background()
			svc, err := storage.NewService(ctx, option.WithEndpoint(ts.URL+"/storage/v1/"), option.WithoutAuthentication())
			if err != nil {
				t.Fatal(err)
			}
			data := payload(tc.size, uint64(tc.size))
			name := fmt.Sprintf("animals/llama-%d.bin", tc.size)
			got, err := svc.Objects.Insert("farm", &storage.Object{Name: name, Metadata: map[string]string{"kind": "llama"}}).
				Media(bytes.NewReader(data), googleapi.ChunkSize(chunk), googleapi.ContentType("application/octet-stream")).
				Context(ctx).Do()
			if err != nil {
				t.Fatalf("Google's client failed: %v", err)
			}
			if got.Name != name || got.Bucket != "farm" || got.Size != uint64(tc.size) || got.Metadata["kind"] != "llama" ||
				got.ContentType != "application/octet-stream" || got.Crc32c == "" {
				t.Fatalf("Google's client decoded %+v", got)
			}
			obj := objectByName(t, srv, name)
			stored(t, srv, obj.ID, data)
			if obj.UploadType != tc.uploadType {
				t.Fatalf("upload type %s, want %s", obj.UploadType, tc.uploadType)
			}
			reqs := srv.Requests()
			if len(reqs) != 1+tc.chunks {
				t.Fatalf("%d requests, want %d: %+v", len(reqs), 1+tc.chunks, reqs)
			}
			for _, r := range reqs[1:] {
				// The client sends chunks with POST and asks for 200 instead of 308.
				if r.Method != http.MethodPost || !r.No308 || r.Session != reqs[0].Session || r.Status == 0 {
					t.Fatalf("chunk request: %+v", r)
				}
			}
		})
	}
}

const eml = "From: Amira <amira@example.com>\r\nTo: office@example.com\r\nSubject: Invoice\r\n\r\nHello.\r\n"

func TestGmailClientUploads(t *testing.T) {
	srv, ts := sandbox(t)
	ctx := context.Background()
	svc, err := gmail.NewService(ctx, option.WithEndpoint(ts.URL+"/"), option.WithoutAuthentication())
	if err != nil {
		t.Fatal(err)
	}

	t.Run("insert, multipart", func(t *testing.T) {
		msg, err := svc.Users.Messages.Insert("me", &gmail.Message{LabelIds: []string{"INBOX", "UNREAD"}}).
			Media(strings.NewReader(eml), googleapi.ContentType("message/rfc822")).Context(ctx).Do()
		if err != nil {
			t.Fatalf("Google's client failed: %v", err)
		}
		if len(msg.Id) != 16 || msg.ThreadId != msg.Id || strings.Join(msg.LabelIds, ",") != "INBOX,UNREAD" {
			t.Fatalf("message = %+v", msg)
		}
		if obj := stored(t, srv, msg.Id, []byte(eml)); obj.Action != "gmail.users.messages.insert" || obj.UploadType != "multipart" {
			t.Fatalf("object = %+v", obj)
		}
	})

	t.Run("import, resumable in chunks", func(t *testing.T) {
		big := []byte(eml + strings.Repeat("A line of a long message body.\r\n", 20000))
		msg, err := svc.Users.Messages.Import("me", &gmail.Message{}).InternalDateSource("dateHeader").NeverMarkSpam(true).
			Media(bytes.NewReader(big), googleapi.ContentType("message/rfc822"), googleapi.ChunkSize(256<<10)).Context(ctx).Do()
		if err != nil {
			t.Fatalf("Google's client failed: %v", err)
		}
		if obj := stored(t, srv, msg.Id, big); obj.UploadType != "resumable" || obj.Action != "gmail.users.messages.import" {
			t.Fatalf("object = %+v", obj)
		}
	})

	t.Run("draft", func(t *testing.T) {
		d, err := svc.Users.Drafts.Create("me", &gmail.Draft{}).
			Media(strings.NewReader(eml), googleapi.ContentType("message/rfc822")).Context(ctx).Do()
		if err != nil {
			t.Fatalf("Google's client failed: %v", err)
		}
		if d.Id == "" || d.Message == nil || strings.Join(d.Message.LabelIds, ",") != "DRAFT" {
			t.Fatalf("draft = %+v", d)
		}
		stored(t, srv, d.Message.Id, []byte(eml))
	})

	t.Run("Google's errors decode", func(t *testing.T) {
		// Without an explicit type the client sniffs an .eml as text/plain, which Gmail refuses.
		_, err := svc.Users.Messages.Insert("me", &gmail.Message{}).Media(strings.NewReader(eml)).Context(ctx).Do()
		var gerr *googleapi.Error
		if !errors.As(err, &gerr) || gerr.Code != http.StatusBadRequest || len(gerr.Errors) != 1 ||
			gerr.Errors[0].Reason != "badContent" || !strings.Contains(gerr.Message, "Valid media types: [message/*]") {
			t.Fatalf("error = %#v", err)
		}
	})
}

func TestCampaignManagerClientUploads(t *testing.T) {
	srv, ts := sandbox(t)
	ctx := context.Background()
	svc, err := dfareporting.NewService(ctx, option.WithEndpoint(ts.URL+"/dfareporting/v5/"), option.WithoutAuthentication())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		size int
		want string
	}{{"multipart", 40 << 10, "multipart"}, {"resumable", 700 << 10, "resumable"}} {
		t.Run(tc.name, func(t *testing.T) {
			data := payload(tc.size, 77)
			meta := &dfareporting.CreativeAssetMetadata{AssetIdentifier: &dfareporting.CreativeAssetId{Name: "spring banner " + tc.name + ".zip", Type: "HTML"}}
			got, err := svc.CreativeAssets.Insert(123456, 7890, meta).
				Media(bytes.NewReader(data), googleapi.ContentType("application/zip"), googleapi.ChunkSize(256<<10)).Context(ctx).Do()
			if err != nil {
				t.Fatalf("Google's client failed: %v", err)
			}
			if got.Id == 0 || got.Kind != "dfareporting#creativeAssetMetadata" || got.AssetIdentifier.Name != meta.AssetIdentifier.Name {
				t.Fatalf("asset = %+v", got)
			}
			if obj := stored(t, srv, fmt.Sprint(got.Id), data); obj.UploadType != tc.want {
				t.Fatalf("object = %+v", obj)
			}
		})
	}
}
