package dest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/text/unicode/norm"

	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// Storage is Google Cloud Storage's objects.insert: each file an object in
// a bucket, named after the file (under a folder, when one is set), with
// the file's type and, when chosen, a storage class. Uploads are exactly
// once (storage_object.go): a generation precondition, the file's CRC32C
// told to Cloud Storage, and the object's metadata read after a lost
// answer. An object already under the name is replaced only when the
// destination says so.
const Storage Kind = "storage"

// StorageMaxSize is the largest object Cloud Storage takes: 5 TiB.
const StorageMaxSize int64 = 5 << 40

// StorageHost is Cloud Storage's JSON API host.
const StorageHost = "https://storage.googleapis.com"

// ResourceManagerHost is Cloud Resource Manager's host: the projects the
// account can see, to choose a bucket from.
const ResourceManagerHost = "https://cloudresourcemanager.googleapis.com"

const (
	// storageScope is what uploads, objects.get and buckets.list need.
	storageScope = googleScopePrefix + "devstorage.read_write"
	// projectsScope is what the list of projects needs: it reads every
	// Cloud resource's settings, so it is asked for only when the user
	// wants the list, and the project's id can be typed instead.
	projectsScope = googleScopePrefix + "cloud-platform.read-only"
)

type storageKind struct{ base }

func init() { register(storageKind{}) }

// Cloud Storage's own facts.
const (
	badBucket      fact.Code = "field.bucketName"   // not a bucket's name or gs:// address
	badFolder      fact.Code = "field.objectFolder" // a folder Cloud Storage cannot name objects under
	badObjectName  fact.Code = "refused.objectName" // File: its object's name (Args["name"]) is one Cloud Storage refuses
	nameTaken      fact.Code = "refused.nameTaken"  // File: the bucket holds an object of its name, and replacing it was not asked for
	savedInStorage fact.Code = "result.storage"     // Args["bucket"], and the object's name, id, storage class and link
)

// The rules of a file Cloud Storage refuses before a byte is sent.
const (
	ruleName  Rule = "objectName" // the file's name makes an object name Cloud Storage refuses
	ruleTaken Rule = "nameTaken"  // the name holds an object the upload may not replace
)

// An object's name: at most 1024 bytes of UTF-8, no line breaks, not "."
// or "..", and not under the folder of certificates' challenges.
const (
	objectNameMax = 1024
	acmeChallenge = ".well-known/acme-challenge/"
)

var storageInfo = KindInfo{
	Kind:    Storage,
	Rank:    55,
	Server:  GoogleServer,
	API:     true,
	MaxSize: StorageMaxSize,
	Fields: []Field{
		{Key: "project", Kind: TextField, List: storageProjects}, // only to choose the bucket from a list
		{Key: "bucket", Required: true, Kind: TextField, List: storageBuckets},
		{Key: "folder", Kind: TextField},
		{Key: "replace", Default: "false", Kind: BoolField},
		{Key: "storageClass", Kind: ChoiceField, Choices: []string{"STANDARD", "NEARLINE", "COLDLINE", "ARCHIVE"}, Advanced: true},
	},
}

// The lists a bucket is chosen from: the projects the account can see
// (Cloud Resource Manager), and a project's buckets.
var (
	storageProjects = &List{
		Name: "storage.projects", Host: ResourceManagerHost, Scope: projectsScope,
		Path:  func(Destination) (string, string) { return "/v1/projects", "" },
		Query: url.Values{"filter": {"lifecycleState:ACTIVE"}, "pageSize": {"500"}},
		Items: "projects", ID: "projectId", Words: []string{"name"}, Pages: true,
	}
	storageBuckets = &List{
		Name: "storage.buckets", Host: StorageHost, Scope: storageScope,
		Path: func(d Destination) (string, string) {
			project := storageOf(d).Project
			if project == "" {
				return "", "project"
			}
			return "/storage/v1/b?" + url.Values{"project": {project}}.Encode(), ""
		},
		Query: url.Values{"maxResults": {"1000"}},
		Items: "items", ID: "name", Words: []string{"name"}, Pages: true,
	}
)

// storageSettings are a Cloud Storage destination's settings, typed.
type storageSettings struct {
	Project      string `key:"project"` // for the list of buckets only
	Bucket       string `key:"bucket"`  // a name, a gs:// address or a console link
	Folder       string `key:"folder"`  // "": the bucket's top, or the folder the bucket's address names
	Replace      bool   `key:"replace"`
	StorageClass string `key:"storageClass"` // "": the bucket's default
}

func (storageKind) settings() any { return &storageSettings{} }

func storageOf(d Destination) (s storageSettings) { typed(d, &s); return s }

func (storageKind) info() KindInfo              { return storageInfo }
func (storageKind) host(Destination) string     { return StorageHost }
func (storageKind) scopes(Destination) []string { return []string{storageScope} }

// factArgs: the bucket.
func (storageKind) factArgs(d Destination) map[string]string {
	bucket, _ := storagePlace(storageOf(d).Bucket)
	return map[string]string{"bucket": bucket}
}

// storagePlace reads a bucket as it is typed or pasted: its name, its
// gs:// address, or its address in the console or on storage.googleapis.com;
// the folder an address names comes with it.
func storagePlace(v string) (bucket, folder string) {
	v = strings.TrimSpace(v)
	rest, ok := strings.CutPrefix(v, "gs://")
	if !ok {
		u, err := url.Parse(v)
		if err != nil || u.Host == "" {
			return v, ""
		}
		rest = strings.TrimPrefix(u.Path, "/") // as it reads, %20 a space
		switch strings.ToLower(u.Host) {
		case "console.cloud.google.com":
			rest, _, _ = strings.Cut(rest, ";") // …;tab=objects
			if r, ok := strings.CutPrefix(rest, "storage/browser/_details/"); ok {
				if i := strings.LastIndex(r, "/"); i >= 0 {
					r = r[:i] // an object's page: its folder
				}
				rest = r
			} else if r, ok := strings.CutPrefix(rest, "storage/browser/"); ok {
				rest = r
			} else {
				return v, ""
			}
		case "storage.googleapis.com", "storage.cloud.google.com":
		default:
			return v, ""
		}
	}
	bucket, folder, _ = strings.Cut(rest, "/")
	return bucket, strings.Trim(folder, "/")
}

// bucketPattern is what a bucket's name is made of; bucketName adds the
// lengths: 3 to 63 characters, up to 222 when dots part it in pieces of
// at most 63.
var bucketPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*[a-z0-9]$`)

func bucketName(b string) bool {
	if len(b) < 3 || len(b) > 222 || !bucketPattern.MatchString(b) || strings.HasPrefix(b, "goog") {
		return false
	}
	for _, piece := range strings.Split(b, ".") {
		if len(piece) == 0 || len(piece) > 63 {
			return false
		}
	}
	return strings.Contains(b, ".") || len(b) <= 63
}

// folder is where the objects go: the folder set, else the one the
// bucket's address names; without slashes at either end.
func (s storageSettings) folder() string {
	f := s.Folder
	if f == "" {
		_, f = storagePlace(s.Bucket)
	}
	return strings.Trim(strings.TrimSpace(f), "/")
}

// objectName is the name the file's object gets: the folder, then the
// file's own name (composed, as macOS writes "é" in two).
func (s storageSettings) objectName(file string) string {
	name := norm.NFC.String(file)
	if f := s.folder(); f != "" {
		return f + "/" + name
	}
	return name
}

// objectNameRefused reports a name Cloud Storage does not take for an object.
func objectNameRefused(name string) bool {
	return name == "" || name == "." || name == ".." || len(name) > objectNameMax ||
		strings.ContainsAny(name, "\r\n") || strings.HasPrefix(name, acmeChallenge)
}

func (storageKind) validate(d Destination) FieldErrors {
	var errs FieldErrors
	s := storageOf(d)
	if s.Bucket != "" {
		if bucket, _ := storagePlace(s.Bucket); !bucketName(bucket) {
			errs = append(errs, fieldError(d, "bucket", badBucket))
		}
	}
	if strings.ContainsAny(s.Project, badIDLetter) {
		errs = append(errs, fieldError(d, "project", fact.BadID))
	}
	if f := strings.Trim(strings.TrimSpace(s.Folder), "/"); f != "" && (objectNameRefused(f+"/") || len(f) > objectNameMax-1) {
		errs = append(errs, fieldError(d, "folder", badFolder))
	}
	return errs
}

// check: the file's name must make an object name Cloud Storage takes.
func (storageKind) check(d Destination, file media.Info) error {
	if name := storageOf(d).objectName(file.Name); objectNameRefused(name) {
		r := refusal(d, ruleName, badObjectName, file)
		r.fact.Args["name"] = name
		return r
	}
	return nil
}

func (storageKind) target(d Destination, file media.Info, t *upload.Target) error {
	s := storageOf(d)
	bucket, _ := storagePlace(s.Bucket)
	meta := map[string]any{"name": s.objectName(file.Name), "contentType": t.ContentType}
	if s.StorageClass != "" {
		meta["storageClass"] = s.StorageClass
	}
	t.Metadata = marshal(meta)
	var err error
	t.URL, err = joinURL(d, StorageHost, "/upload/storage/v1/b/"+url.PathEscape(bucket)+"/o", nil)
	return err
}

// result: the object, in its bucket, with its storage class and a link to
// open it: its page in the Google Cloud console, or what another server
// (the sandbox) gives to download it.
func (storageKind) result(d Destination, a answer, r *Result) {
	var o struct {
		Bucket       string `json:"bucket"`
		StorageClass string `json:"storageClass"`
	}
	_ = json.Unmarshal(r.Raw, &o)
	bucket, _ := storagePlace(storageOf(d).Bucket)
	bucket = firstOf(o.Bucket, bucket)
	r.ID, r.Name = string(a.ID), a.Name
	if d.NeedsAuth() && bucket != "" && a.Name != "" {
		r.URL = "https://console.cloud.google.com/storage/browser/_details/" + url.PathEscape(bucket) + "/" + escapeSegments(a.Name)
	} else {
		r.URL = a.MediaLink
	}
	r.Fact = resultFact(savedInStorage, r, "bucket", bucket, "storageClass", o.StorageClass)
}

// escapeSegments escapes each part of an object's name between slashes.
func escapeSegments(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

// refusalFact: a name taken meanwhile (the precondition failed), and bytes
// damaged on the way (the checksum Hoist named did not match them:
// storage_object.go).
func (storageKind) refusalFact(_ Destination, e *upload.APIError) fact.Code {
	switch {
	case e.Status == http.StatusPreconditionFailed && strings.EqualFold(e.Reason, "conditionNotMet"):
		return nameTaken
	case checksumRefused(e):
		return damagedOnWay
	}
	return ""
}

// passesLater: bytes damaged on the way arrive whole when sent again.
func (storageKind) passesLater(_ Destination, e *upload.APIError) bool { return checksumRefused(e) }

// findable: sent exactly once (storage_object.go). Unless the destination
// replaces objects, the name must hold none: ifGenerationMatch=0, and a
// name found taken refuses the file before a byte is sent.
func (storageKind) findable(d Destination, file media.Info, _ string, p *Plan) {
	p.Target.Identifies = identifies(d)
	if !exactlyOnce(&p.Target, p) {
		return
	}
	s := storageOf(d)
	if s.Replace {
		return
	}
	taken := refusal(d, ruleTaken, nameTaken, file)
	bucket, _ := storagePlace(s.Bucket)
	taken.fact.Args["bucket"], taken.fact.Args["name"] = bucket, s.objectName(file.Name)
	p.Target.Pin = newObjectsOnly{taken: taken}
}

// newObjectsOnly pins ifGenerationMatch=0: the upload makes a new object,
// and a name found holding one refuses it before a byte is sent.
type newObjectsOnly struct{ taken *Refusal }

func (p newObjectsOnly) Pin(target string, f upload.Found) (string, error) {
	if f.Body != nil {
		return "", p.taken
	}
	return storagePin{}.Pin(target, upload.Found{})
}
