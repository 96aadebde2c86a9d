package emulator

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Cloud Storage's JSON API: objects.insert (/upload/storage/v1/b/{bucket}/o,
// the object's name in name= or the metadata), an object's metadata
// (objects.get), the lists a bucket is chosen from (Cloud Resource
// Manager's projects.list, buckets.list), generation preconditions (ifGenerationMatch,
// ifGenerationNotMatch: 412 conditionNotMet when they do not hold) and the
// checksums a client names (crc32c and md5Hash in the metadata, X-Goog-Hash
// on the request with the last byte: 400 when the bytes do not match).
// Objects of a name keep their generations; the newest is the object.

// KindStorage is Cloud Storage's objects.insert.
const KindStorage Kind = "storage" // /upload/storage/v1/b/{bucket}/o

func init() {
	serve(service{prefix: "storage", kind: KindStorage, resolve: resolveStorage, routes: func(s *Server, mux *http.ServeMux) {
		mux.HandleFunc("GET /storage/v1/b/{bucket}/o/{object...}", s.serveStorageObject)
		// What a bucket is chosen from: the projects the account sees
		// (Cloud Resource Manager's projects.list, v1), and a project's buckets.
		mux.HandleFunc("GET /v1/projects", s.serveProjects)
		mux.HandleFunc("GET /storage/v1/b", s.serveBuckets)
	}, lists: storageLists})
}

// The lists behind Cloud Storage's pickers.
const (
	listProjects = "storage.projects" // []ListedProject
	listBuckets  = "storage.buckets"  // map[string][]ListedBucket, by project id
)

// ListedProject is a Google Cloud project as Cloud Resource Manager's
// projects.list (v1) gives it.
type ListedProject struct {
	ProjectID      string `json:"projectId"`
	ProjectNumber  string `json:"projectNumber"`
	Name           string `json:"name"`
	LifecycleState string `json:"lifecycleState"` // ACTIVE, or DELETE_REQUESTED
}

// ListedBucket is a bucket as buckets.list gives it.
type ListedBucket struct {
	Name         string `json:"name"`
	Location     string `json:"location"`
	StorageClass string `json:"storageClass"`
}

// storageLists are what the sandbox offers unless told otherwise: a
// project with three buckets, one with none yet, and one being deleted,
// which projects.list shows only when not asked for active ones.
func storageLists() Lists {
	return Lists{
		listProjects: []ListedProject{
			{ProjectID: "northwind-web", ProjectNumber: "401234567890", Name: "Northwind Web", LifecycleState: "ACTIVE"},
			{ProjectID: "northwind-archive", ProjectNumber: "401234567891", Name: "Northwind Archive", LifecycleState: "ACTIVE"},
			{ProjectID: "northwind-old", ProjectNumber: "401234567892", Name: "Northwind Old", LifecycleState: "DELETE_REQUESTED"},
		},
		listBuckets: map[string][]ListedBucket{
			"northwind-web": {
				{Name: "northwind-banners", Location: "EU", StorageClass: "STANDARD"},
				{Name: "northwind-exports", Location: "EUROPE-WEST1", StorageClass: "NEARLINE"},
				{Name: "northwind-press-kit", Location: "US", StorageClass: "STANDARD"},
			},
		},
	}
}

// serveProjects answers projects.list: filter=lifecycleState:ACTIVE leaves
// out projects being deleted; pageSize and pageToken page through them.
func (s *Server) serveProjects(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) {
		return
	}
	q := r.URL.Query()
	var all []ListedProject
	for _, p := range listed[[]ListedProject](s, listProjects) {
		if f := q.Get("filter"); f != "" && f != "lifecycleState:"+p.LifecycleState {
			continue
		}
		all = append(all, p)
	}
	page, next, e := pageOf(all, q.Get("pageToken"), q.Get("pageSize"), 500)
	if e != nil {
		writeError(w, e)
		return
	}
	out := map[string]any{}
	if len(page) > 0 {
		out["projects"] = page // an account with none gets {}
	}
	if next != "" {
		out["nextPageToken"] = next
	}
	writeList(w, out)
}

// serveBuckets answers buckets.list: a project's buckets, which the
// project parameter must name.
func (s *Server) serveBuckets(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) {
		return
	}
	q := r.URL.Query()
	project := q.Get("project")
	if project == "" {
		writeError(w, newError(http.StatusBadRequest, "required", "Required parameter: project"))
		return
	}
	if !slices.ContainsFunc(listed[[]ListedProject](s, listProjects), func(p ListedProject) bool {
		return p.ProjectID == project || p.ProjectNumber == project
	}) {
		writeError(w, newError(http.StatusForbidden, "forbidden",
			"The caller does not have storage.buckets.list access to the Google Cloud project. Permission 'storage.buckets.list' denied on resource (or it may not exist)."))
		return
	}
	type item struct {
		Kind string `json:"kind"`
		ID   string `json:"id"`
		ListedBucket
	}
	var all []item
	for _, b := range listed[map[string][]ListedBucket](s, listBuckets)[project] {
		all = append(all, item{"storage#bucket", b.Name, b})
	}
	page, next, e := pageOf(all, q.Get("pageToken"), q.Get("maxResults"), 1000)
	if e != nil {
		writeError(w, e)
		return
	}
	out := map[string]any{"kind": "storage#buckets"}
	if len(page) > 0 {
		out["items"] = page
	}
	if next != "" {
		out["nextPageToken"] = next
	}
	writeList(w, out)
}

// pageOf is one page of items: from the token (an offset the sandbox gave),
// at most size of them (most when size is not set); next is the token of
// the page after it, "" at the end.
func pageOf[T any](items []T, token, size string, most int) (page []T, next string, e *apiError) {
	from := 0
	if token != "" {
		n, err := strconv.Atoi(token)
		if err != nil || n < 0 || n > len(items) {
			return nil, "", invalid("Invalid page token: %q", token)
		}
		from = n
	}
	n := most
	if size != "" {
		v, err := strconv.Atoi(size)
		if err != nil || v < 1 {
			return nil, "", invalid("Invalid value for page size: %q", size)
		}
		n = min(v, most)
	}
	to := min(from+n, len(items))
	if to < len(items) {
		next = strconv.Itoa(to)
	}
	return items[from:to], next, nil
}

type storageEndpoint struct {
	bucket string
}

// resolveStorage maps POST /upload/storage/v1/b/{bucket}/o.
func resolveStorage(method string, seg []string) (endpoint, *apiError) {
	if len(seg) != 5 || seg[1] != "v1" || seg[2] != "b" || seg[3] == "" || seg[4] != "o" || method != http.MethodPost {
		return nil, methodNotFound()
	}
	return &storageEndpoint{bucket: seg[3]}, nil
}

func (e *storageEndpoint) kind() Kind      { return KindStorage }
func (e *storageEndpoint) action() string  { return "storage.objects.insert" }
func (e *storageEndpoint) limit() int64    { return 0 }
func (e *storageEndpoint) accepts() string { return "*/*" }
func (e *storageEndpoint) newID() string   { return randomHex(8) }

// answersMD5: Cloud Storage's md5Hash is the bytes' MD5.
func (e *storageEndpoint) answersMD5() bool { return true }

// objectFields are the fields of an Object resource: those a request may
// set, and those Cloud Storage sets itself, which it ignores in a request.
var objectFields = []string{
	"name", "contentType", "contentEncoding", "contentDisposition", "contentLanguage", "cacheControl",
	"metadata", "storageClass", "crc32c", "md5Hash", "acl", "customTime", "kmsKeyName",
	"temporaryHold", "eventBasedHold", "retention", "contexts",
	"kind", "id", "selfLink", "mediaLink", "bucket", "generation", "metageneration", "size",
	"timeCreated", "updated", "owner", "etag", "componentCount", "timeStorageClassUpdated",
}

// storageClasses are the storage classes an object may be given.
var storageClasses = []string{"STANDARD", "NEARLINE", "COLDLINE", "ARCHIVE", "MULTI_REGIONAL", "REGIONAL", "DURABLE_REDUCED_AVAILABILITY"}

// check: an object has a name, in name= or the metadata, and known fields;
// its storage class is one Cloud Storage has.
func (e *storageEndpoint) check(_ *Server, u *uploadInfo) *apiError {
	if objectName(u) == "" {
		return newError(http.StatusBadRequest, "required", "Required")
	}
	if e := checkFields(u.metadata, "", objectFields...); e != nil {
		return e
	}
	if c := metadataString(u.metadata, "storageClass"); c != "" && !slices.Contains(storageClasses, c) {
		return invalid("Invalid argument: storage class %s is not valid.", c)
	}
	return nil
}

func (e *storageEndpoint) inspect(*uploadInfo, content) *apiError { return nil }

// commitCheck applies the preconditions and checks the checksums named.
func (e *storageEndpoint) commitCheck(s *Server, u *uploadInfo, c content) *apiError {
	if e := checkNamedSums(u, c); e != nil {
		return e
	}
	current := int64(0)
	if o, ok := s.storageObject(e.bucket, objectName(u)); ok {
		current = generationOf(o)
	}
	for _, p := range []struct {
		name  string
		holds func(n int64) bool
	}{
		{"ifGenerationMatch", func(n int64) bool { return n == current }},
		{"ifGenerationNotMatch", func(n int64) bool { return n != current }},
	} {
		v := u.query.Get(p.name)
		if v == "" {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return invalid("Invalid value for %s: %q", p.name, v)
		}
		if !p.holds(n) {
			return newError(http.StatusPreconditionFailed, "conditionNotMet", "At least one of the pre-conditions you specified did not hold.")
		}
	}
	return nil
}

// resource is the Object: the metadata sent, echoed, with what Cloud
// Storage adds (bucket, size, checksums, generation, links).
func (e *storageEndpoint) resource(_ *Server, f *finished) resourceResult {
	o := objectResource(f)
	if raw, err := hex.DecodeString(f.content.MD5); err == nil && f.content.MD5 != "" {
		o.body["md5Hash"] = base64.StdEncoding.EncodeToString(raw)
	}
	o.body["bucket"] = e.bucket
	if c := metadataString(f.info.metadata, "storageClass"); c == "" {
		o.body["storageClass"] = "STANDARD" // the bucket's default
	}
	o.body["id"] = e.bucket + "/" + o.name + "/" + o.generation
	o.body["selfLink"] = f.base + "/storage/v1/b/" + url.PathEscape(e.bucket) + "/o/" + url.PathEscape(o.name)
	return resourceResult{name: o.name, body: o.body}
}

// checkNamedSums compares the CRC32C and MD5 the client named with the bytes'.
func checkNamedSums(u *uploadInfo, c content) *apiError {
	var crc [4]byte
	binary.BigEndian.PutUint32(crc[:], c.CRC32C)
	gotCRC := base64.StdEncoding.EncodeToString(crc[:])
	gotMD5 := ""
	if raw, err := hex.DecodeString(c.MD5); err == nil && c.MD5 != "" {
		gotMD5 = base64.StdEncoding.EncodeToString(raw)
	}
	named := map[string]string{
		"crc32c": metadataString(u.metadata, "crc32c"),
		"md5":    metadataString(u.metadata, "md5Hash"),
	}
	for _, part := range strings.Split(u.hash, ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(part), "="); ok && v != "" {
			named[strings.ToLower(k)] = v
		}
	}
	if v := named["crc32c"]; v != "" && v != gotCRC {
		return badRequest("Provided CRC32C %q doesn't match calculated CRC32C %q.", v, gotCRC)
	}
	if v := named["md5"]; v != "" && gotMD5 != "" && v != gotMD5 {
		return badRequest("Provided MD5 hash %q doesn't match calculated MD5 hash %q.", v, gotMD5)
	}
	return nil
}

// storageObject is the newest object of the name in the bucket.
func (s *Server) storageObject(bucket, name string) (Object, bool) {
	path := "/upload/storage/v1/b/" + bucket + "/o"
	var found Object
	ok := false
	for _, o := range s.store.Objects() {
		if o.Kind == KindStorage && o.Path == path && o.Name == name && (!ok || generationOf(o) >= generationOf(found)) {
			found, ok = o, true
		}
	}
	return found, ok
}

// generationOf is the generation an object's answer gave.
func generationOf(o Object) int64 {
	var r struct {
		Generation string `json:"generation"`
	}
	_ = json.Unmarshal(o.Response, &r)
	n, _ := strconv.ParseInt(r.Generation, 10, 64)
	return n
}

// serveStorageObject answers objects.get: the newest generation's metadata.
func (s *Server) serveStorageObject(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) {
		return
	}
	bucket, name := r.PathValue("bucket"), r.PathValue("object")
	o, ok := s.storageObject(bucket, name)
	if !ok {
		writeError(w, notFound("No such object: %s/%s", bucket, name))
		return
	}
	writeJSON(w, http.StatusOK, o.Response)
}
