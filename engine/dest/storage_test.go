package dest

import (
	"errors"
	"strings"
	"testing"

	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

func TestStoragePlans(t *testing.T) {
	const upload = "https://storage.googleapis.com/upload/storage/v1/b/"
	cases := []struct {
		name     string
		params   map[string]string
		url      string
		metadata string
	}{
		{"a bucket", map[string]string{"bucket": "northwind-banners"},
			upload + "northwind-banners/o", `{"contentType":"image/png","name":"Tom & Jerry.png"}`},
		{"a folder and a class", map[string]string{"bucket": " northwind-banners ", "folder": "/banners/2026/", "storageClass": "coldline"},
			upload + "northwind-banners/o", `{"contentType":"image/png","name":"banners/2026/Tom & Jerry.png","storageClass":"COLDLINE"}`},
		{"a gs:// address names the folder", map[string]string{"bucket": "gs://northwind-banners/spring/"},
			upload + "northwind-banners/o", `{"contentType":"image/png","name":"spring/Tom & Jerry.png"}`},
		{"the folder set wins", map[string]string{"bucket": "gs://northwind-banners/spring", "folder": "summer"},
			upload + "northwind-banners/o", `{"contentType":"image/png","name":"summer/Tom & Jerry.png"}`},
		{"a console link", map[string]string{"bucket": "https://console.cloud.google.com/storage/browser/exports.northwind.example/2026%20Q1;tab=objects?project=northwind-web"},
			upload + "exports.northwind.example/o", `{"contentType":"image/png","name":"2026 Q1/Tom & Jerry.png"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Destination{Kind: Storage, Params: c.params}
			p, err := d.PlanFor(media.Info{Name: "Tom & Jerry.png", Size: 10, MIME: "image/png"}, "job-1")
			if err != nil {
				t.Fatal(err)
			}
			if p.Target.HTTPMethod != "POST" || p.Target.URL != c.url || string(p.Target.Metadata) != c.metadata || p.Target.ContentType != "image/png" {
				t.Errorf("plan %s %s %s (%s), want POST %s %s", p.Target.HTTPMethod, p.Target.URL, p.Target.Metadata, p.Target.ContentType, c.url, c.metadata)
			}
			if len(p.Scopes) != 1 || p.Scopes[0] != "https://www.googleapis.com/auth/devstorage.read_write" || p.MaxSize != 5<<40 || !d.NeedsAuth() {
				t.Errorf("scopes %v, limit %d, needs sign-in %v", p.Scopes, p.MaxSize, d.NeedsAuth())
			}
			if !p.Target.SendCRC32C || p.Target.Pin == nil || len(p.Find) != 1 || p.Target.Identifies == nil {
				t.Errorf("not sent exactly once: %+v", p.Target)
			}
		})
	}
	// The object keeps the file's name as people see it: composed, as macOS writes "é" in two.
	p, err := Destination{Kind: Storage, Params: map[string]string{"bucket": "northwind-banners"}}.Plan(media.Info{Name: "e\u0301te\u0301.png", Size: 1, MIME: "image/png"})
	if err != nil || !strings.Contains(string(p.Target.Metadata), `"name":"été.png"`) {
		t.Errorf("%s, %v", p.Target.Metadata, err)
	}
	// Pointed at the sandbox, the same path on its address.
	p, err = Destination{Kind: Storage, BaseURL: "http://127.0.0.1:8765", Params: map[string]string{"bucket": "b-1"}}.Plan(media.Info{Name: "a.png", Size: 1})
	if err != nil || p.Target.URL != "http://127.0.0.1:8765/upload/storage/v1/b/b-1/o" {
		t.Errorf("%s, %v", p.Target.URL, err)
	}
}

func TestStorageSettingsRefused(t *testing.T) {
	for _, c := range []struct {
		params map[string]string
		field  string
		code   fact.Code
	}{
		{map[string]string{}, "bucket", fact.Required},
		{map[string]string{"bucket": "Northwind"}, "bucket", badBucket},
		{map[string]string{"bucket": "ab"}, "bucket", badBucket},
		{map[string]string{"bucket": "-banners"}, "bucket", badBucket},
		{map[string]string{"bucket": "google-banners"}, "bucket", badBucket},
		{map[string]string{"bucket": strings.Repeat("a", 64)}, "bucket", badBucket},
		{map[string]string{"bucket": "gs://"}, "bucket", badBucket},
		{map[string]string{"bucket": "https://example.com/b"}, "bucket", badBucket},
		{map[string]string{"bucket": "b-1", "project": "my project"}, "project", fact.BadID},
		{map[string]string{"bucket": "b-1", "folder": "a\nb"}, "folder", badFolder},
		{map[string]string{"bucket": "b-1", "folder": strings.Repeat("f", 1024)}, "folder", badFolder},
		{map[string]string{"bucket": "b-1", "storageClass": "cheap"}, "storageClass", fact.NotChoice},
		{map[string]string{"bucket": "b-1", "replace": "sometimes"}, "replace", fact.NotBool},
	} {
		var fe FieldErrors
		err := Destination{Kind: Storage, Params: c.params}.Validate()
		if !errors.As(err, &fe) || fe.For(c.field) != c.code {
			t.Errorf("%v: %v, want %s about %s", c.params, err, c.code, c.field)
		}
	}
	for _, ok := range []string{"northwind-banners", "exports.northwind.example", "a_b", strings.Repeat("a", 63), "gs://b-1/x/y"} {
		if err := (Destination{Kind: Storage, Params: map[string]string{"bucket": ok, "project": "northwind-web", "folder": "2026/Q1"}}).Validate(); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	// A file whose name would make an object name Cloud Storage refuses is refused before a byte is sent.
	d := Destination{Kind: Storage, Params: map[string]string{"bucket": "b-1", "folder": strings.Repeat("f", 1000)}}
	var r *Refusal
	if _, err := d.Plan(media.Info{Name: strings.Repeat("n", 30) + ".png", Size: 1, MIME: "image/png"}); !errors.As(err, &r) || r.Fact().Code != badObjectName || r.Fact().Arg("name") == "" {
		t.Errorf("a name over 1024 bytes: %v", err)
	}
	if _, err := d.WithParam("folder", "").Plan(media.Info{Name: "a\rb.png", Size: 1}); !errors.As(err, &r) || r.Fact().Code != badObjectName {
		t.Errorf("a name with a line break: %v", err)
	}
	if _, err := (Destination{Kind: Storage, Params: map[string]string{"bucket": "b-1"}}).Plan(media.Info{Name: "disk.img", Size: 5<<40 + 1}); !errors.As(err, &r) || r.Rule != RuleSize {
		t.Errorf("over 5 TiB: %v", err)
	}
}

// TestStorageReplacesOnlyOnPurpose: unless the destination replaces
// objects, the upload is pinned to a free name, and a name found taken
// refuses the file; a destination that replaces pins the generation found.
func TestStorageReplacesOnlyOnPurpose(t *testing.T) {
	info := media.Info{Name: "logo.png", Size: 3, MIME: "image/png"}
	taken := upload.Found{Body: []byte(`{"name":"logo.png","generation":"17"}`), ByName: true, Generation: "17"}
	const base = "https://storage.googleapis.com/upload/storage/v1/b/b-1/o"

	p, err := Destination{Kind: Storage, Params: map[string]string{"bucket": "b-1"}}.PlanFor(info, "j")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := p.Target.Pin.Pin(base, upload.Found{}); err != nil || got != base+"?ifGenerationMatch=0" {
		t.Errorf("a free name: %s, %v", got, err)
	}
	_, err = p.Target.Pin.Pin(base, taken)
	var r *Refusal
	if !errors.As(err, &r) || r.Fact().Code != nameTaken || r.Fact().File != "logo.png" || r.Fact().Arg("bucket") != "b-1" || r.Fact().Arg("name") != "logo.png" {
		t.Errorf("a name taken: %v", err)
	}

	p, err = Destination{Kind: Storage, Params: map[string]string{"bucket": "b-1", "replace": "true"}}.PlanFor(info, "j")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := p.Target.Pin.Pin(base, taken); err != nil || got != base+"?ifGenerationMatch=17" {
		t.Errorf("replacing: %s, %v", got, err)
	}
}

func TestStorageResults(t *testing.T) {
	body := []byte(`{"kind":"storage#object","id":"b-1/2026 Q1/été #1.png/1712","name":"2026 Q1/été #1.png","bucket":"b-1",
		"storageClass":"NEARLINE","mediaLink":"http://127.0.0.1:8765/sandbox/objects/9f","size":"3","crc32c":"AAAAAA=="}`)
	r, err := ParseResult(Destination{Kind: Storage, Params: map[string]string{"bucket": "b-1"}}, body)
	if err != nil || r.ID != "b-1/2026 Q1/été #1.png/1712" || r.Name != "2026 Q1/été #1.png" ||
		r.URL != "https://console.cloud.google.com/storage/browser/_details/b-1/2026%20Q1/%C3%A9t%C3%A9%20%231.png" {
		t.Errorf("from Google: %+v, %v", r, err)
	}
	if r.Fact.Code != savedInStorage || r.Fact.Arg("bucket") != "b-1" || r.Fact.Arg("storageClass") != "NEARLINE" || r.Fact.Arg("title") != r.Name {
		t.Errorf("fact %+v", r.Fact)
	}
	r, _ = ParseResult(Destination{Kind: Storage, BaseURL: "http://127.0.0.1:8765", Params: map[string]string{"bucket": "b-1"}}, body)
	if r.URL != "http://127.0.0.1:8765/sandbox/objects/9f" {
		t.Errorf("from the sandbox, the link %q", r.URL)
	}
	if _, err := ParseResult(Destination{Kind: Storage}, nil); err == nil {
		t.Error("an empty answer was taken as an object")
	}
	if identifies(Destination{Kind: Storage})([]byte(`{}`)) {
		t.Error("an answer naming no object was taken as done")
	}
}

func TestStorageRefusals(t *testing.T) {
	d := Destination{Kind: Storage, Params: map[string]string{"bucket": "b-1"}}
	taken := &upload.APIError{Status: 412, Reason: "conditionNotMet", Message: "At least one of the pre-conditions you specified did not hold."}
	damaged := &upload.APIError{Status: 400, Reason: "invalid", Message: `Provided CRC32C "AAAAAA==" doesn't match calculated CRC32C "BBBBBB==".`}
	other := &upload.APIError{Status: 400, Reason: "invalid", Message: "Invalid argument."}
	if RefusalFact(d, taken) != nameTaken || RefusalFact(d, damaged) != damagedOnWay || RefusalFact(d, other) != "" {
		t.Errorf("facts %q %q %q", RefusalFact(d, taken), RefusalFact(d, damaged), RefusalFact(d, other))
	}
	if !RefusalPassesLater(d, damaged) || RefusalPassesLater(d, taken) || RefusalPassesLater(d, other) {
		t.Error("only damaged bytes pass when sent again")
	}
	if args := FactArgs(d); args["bucket"] != "b-1" || len(args) != 1 {
		t.Errorf("a refusal names %v", args)
	}
}

// TestStorageLists: a bucket is chosen from a project's buckets, the project
// from those the account sees, whose list needs its own, broader access.
func TestStorageLists(t *testing.T) {
	projects, buckets := Storage.ListOf("project"), Storage.ListOf("bucket")
	if projects == nil || buckets == nil || projects.Scope != "https://www.googleapis.com/auth/cloud-platform.read-only" ||
		buckets.Scope != "https://www.googleapis.com/auth/devstorage.read_write" || projects.Host != ResourceManagerHost {
		t.Fatalf("lists %+v %+v", projects, buckets)
	}
	if path, needs := buckets.Path(Destination{Kind: Storage}); path != "" || needs != "project" {
		t.Errorf("without a project: %q, needs %q", path, needs)
	}
	if path, _ := buckets.Path(Destination{Kind: Storage, Params: map[string]string{"project": "northwind web"}}); path != "/storage/v1/b?project=northwind+web" {
		t.Errorf("a project's buckets at %q", path)
	}
	if path, needs := projects.Path(Destination{Kind: Storage}); path != "/v1/projects" || needs != "" {
		t.Errorf("projects at %q, needs %q", path, needs)
	}
	if d := (Destination{Kind: Storage, Params: map[string]string{"bucket": "b-1", "project": "p"}}); len(d.NamesTyped()) != 0 {
		t.Error("a bucket's or a project's name is not an id to look up")
	}
}
