package emulator

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"strconv"
	"time"
)

// jobMark is the query parameter Hoist marks a sandbox upload with (its
// job's id), and the field the sandbox keeps it in.
const jobMark = "hoistJob"

// KindGeneric is any other /upload/ path (the sandbox's own among them), stored like a Cloud Storage object.
const KindGeneric Kind = "generic" // any other /upload/ path

type genericEndpoint struct{}

func resolveGeneric(string, []string) (endpoint, *apiError) { return &genericEndpoint{}, nil }

func (g *genericEndpoint) kind() Kind      { return KindGeneric }
func (g *genericEndpoint) action() string  { return "upload" }
func (g *genericEndpoint) limit() int64    { return 0 }
func (g *genericEndpoint) accepts() string { return "*/*" }
func (g *genericEndpoint) newID() string   { return randomHex(8) }

func (g *genericEndpoint) check(*Server, *uploadInfo) *apiError   { return nil }
func (g *genericEndpoint) inspect(*uploadInfo, content) *apiError { return nil }
func (g *genericEndpoint) resource(_ *Server, f *finished) resourceResult {
	r := objectResource(f)
	if job := f.info.query.Get(jobMark); job != "" {
		r.body[jobMark] = job // the mark a client put on the upload, to find it by
	}
	return resourceResult{name: r.name, body: r.body}
}

// objectName is the name an upload gives its object: the metadata's name,
// else the name query parameter (as Cloud Storage reads it).
func objectName(u *uploadInfo) string {
	if n := metadataString(u.metadata, "name"); n != "" {
		return n
	}
	return u.query.Get("name")
}

// object is an upload's answer shaped like a Cloud Storage object.
type object struct {
	name string
	body map[string]any
	// generation is the object's generation: its time of creation in microseconds.
	generation string
}

// objectResource is the answer to an upload shaped like a Cloud Storage
// object: the metadata sent, echoed, with the object's name (its id when
// it has none), size, type, CRC32C, SHA-256, generation, times and links.
func objectResource(f *finished) object {
	name := objectName(f.info)
	if name == "" {
		name = f.id
	}
	ct := f.info.contentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	body := map[string]any{}
	if f.info.metadata != nil {
		_ = json.Unmarshal(f.info.metadata, &body) // echoed like Cloud Storage echoes metadata
	}
	var crc [4]byte
	binary.BigEndian.PutUint32(crc[:], f.content.CRC32C)
	generation := strconv.FormatInt(f.created.UnixMicro(), 10)
	when := f.created.Format(time.RFC3339Nano)
	for k, v := range map[string]any{
		"kind": "storage#object", "id": f.id, "name": name,
		"size": strconv.FormatInt(f.content.Size, 10), "contentType": ct,
		"crc32c": base64.StdEncoding.EncodeToString(crc[:]), "sha256Hash": f.content.SHA256,
		"generation": generation, "metageneration": "1",
		"timeCreated": when, "updated": when,
		"mediaLink": f.base + "/sandbox/objects/" + f.id,
		"selfLink":  f.base + "/sandbox/objects/" + f.id + "/info",
	} {
		body[k] = v
	}
	return object{name: name, body: body, generation: generation}
}
