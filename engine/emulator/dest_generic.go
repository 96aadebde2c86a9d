package emulator

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// jobMark is the query parameter Hoist marks a sandbox upload with (its
// job's id), and the field the sandbox keeps it in.
const jobMark = "hoistJob"

// KindGeneric is any other /upload/ path (the sandbox's own among them), stored like a Cloud Storage object.
const KindGeneric Kind = "generic" // any other /upload/ path

type genericEndpoint struct {
	bucket  string
	storage bool // /upload/storage/v1/b/{bucket}/o: Cloud Storage's objects.insert
}

func resolveGeneric(_ string, seg []string) (endpoint, *apiError) {
	if len(seg) == 5 && seg[0] == "storage" && seg[1] == "v1" && seg[2] == "b" && seg[3] != "" && seg[4] == "o" {
		return &genericEndpoint{bucket: seg[3], storage: true}, nil
	}
	return &genericEndpoint{}, nil
}

func (g *genericEndpoint) kind() Kind { return KindGeneric }
func (g *genericEndpoint) action() string {
	if g.storage {
		return "storage.objects.insert"
	}
	return "upload"
}
func (g *genericEndpoint) limit() int64    { return 0 }
func (g *genericEndpoint) accepts() string { return "*/*" }
func (g *genericEndpoint) newID() string   { return randomHex(8) }

func (g *genericEndpoint) name(u *uploadInfo) string {
	if n := metadataString(u.metadata, "name"); n != "" {
		return n
	}
	return u.query.Get("name")
}

func (g *genericEndpoint) check(_ *Server, u *uploadInfo) *apiError {
	if g.storage && g.name(u) == "" {
		return newError(http.StatusBadRequest, "required", "Required")
	}
	return nil
}

func (g *genericEndpoint) inspect(*uploadInfo, content) *apiError { return nil }

func (g *genericEndpoint) resource(_ *Server, f *finished) resourceResult {
	name := g.name(f.info)
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
	if job := f.info.query.Get(jobMark); job != "" && !g.storage {
		body[jobMark] = job // the mark a client put on the upload, to find it by
	}
	if g.storage {
		if raw, err := hex.DecodeString(f.content.MD5); err == nil && f.content.MD5 != "" {
			body["md5Hash"] = base64.StdEncoding.EncodeToString(raw)
		}
		body["bucket"] = g.bucket
		body["id"] = g.bucket + "/" + name + "/" + generation
		body["selfLink"] = f.base + "/storage/v1/b/" + url.PathEscape(g.bucket) + "/o/" + url.PathEscape(name)
	}
	return resourceResult{name: name, body: body}
}
