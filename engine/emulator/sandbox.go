package emulator

import (
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"mime"
	"net/http"
	"strconv"
)

// sandboxRoutes serves what people poking at the sandbox look at: a list of
// what it received and downloads where bytes are kept; each destination's
// file adds what else it serves (its lists, its lookups, its links).
func (s *Server) sandboxRoutes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.serveIndex)
	mux.HandleFunc("GET /sandbox/objects", s.serveObjectList)
	mux.HandleFunc("GET /sandbox/objects/{id}", s.serveObjectBytes)
	mux.HandleFunc("GET /sandbox/objects/{id}/info", s.serveObjectInfo)
	mux.HandleFunc("GET /sandbox/requests", s.serveRequestList)
	for _, svc := range services {
		if svc.routes != nil {
			svc.routes(s, mux)
		}
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, notFound("Not Found"))
	})
	return mux
}

var indexPage = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en"><meta charset="utf-8"><title>Hoist sandbox</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:start}code{font-size:.85em}</style>
<h1>Hoist sandbox</h1>
<p>{{len .}} uploads received. <a href="/sandbox/objects">JSON</a></p>
<table><tr><th>Name</th><th>Destination</th><th>Size</th><th>SHA-256</th><th>Received</th></tr>
{{range .}}<tr><td dir="auto">{{if .Kept}}<a href="/sandbox/objects/{{.ID}}">{{or .Name .ID}}</a>{{else}}{{or .Name .ID}}{{end}}</td><td>{{.Action}}</td><td>{{.Size}}</td><td><code>{{.SHA256}}</code></td><td>{{.Created.Format "2006-01-02 15:04:05"}}</td></tr>
{{end}}</table>
`))

func (s *Server) serveIndex(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	if err := indexPage.Execute(w, s.Objects()); err != nil {
		s.log.Debug("index page not sent", "err", err)
	}
}

// serveObjectList lists what the sandbox received; ?hoistJob=ID only what
// an upload marked with that job made (how Hoist finds an upload whose
// answer was lost).
func (s *Server) serveObjectList(w http.ResponseWriter, r *http.Request) {
	objs := s.Objects()
	if job := r.URL.Query().Get(jobMark); job != "" {
		var marked []Object
		for _, o := range objs {
			var res map[string]any
			if json.Unmarshal(o.Response, &res) == nil && res[jobMark] == job {
				marked = append(marked, o)
			}
		}
		objs = marked
	}
	if objs == nil {
		objs = []Object{}
	}
	writeJSONValue(w, objs)
}

func (s *Server) serveRequestList(w http.ResponseWriter, _ *http.Request) {
	writeJSONValue(w, s.Requests())
}

func (s *Server) serveObjectInfo(w http.ResponseWriter, r *http.Request) {
	obj, ok := s.Object(r.PathValue("id"))
	if !ok {
		writeError(w, notFound("No object with this id."))
		return
	}
	writeJSONValue(w, obj)
}

func (s *Server) serveObjectBytes(w http.ResponseWriter, r *http.Request) {
	obj, ok := s.Object(r.PathValue("id"))
	if !ok {
		writeError(w, notFound("No object with this id."))
		return
	}
	name := obj.Name
	if name == "" {
		name = obj.ID
	}
	s.serveBytes(w, obj, mime.FormatMediaType("attachment", map[string]string{"filename": name}))
}

func (s *Server) serveBytes(w http.ResponseWriter, obj Object, disposition string) {
	rc, err := s.Open(obj.ID)
	switch {
	case errors.Is(err, ErrNotKept):
		writeError(w, notFound("This sandbox keeps only the size and SHA-256 of what it receives, not the bytes."))
		return
	case err != nil:
		writeError(w, internal("The object could not be read."))
		s.log.Error("store failed", "err", err)
		return
	}
	defer rc.Close()
	h := w.Header()
	ct := obj.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	h.Set("Content-Type", ct)
	h.Set("Content-Length", strconv.FormatInt(obj.Size, 10))
	h.Set("Content-Disposition", disposition)
	// Uploaded bytes are the user's, not the sandbox's: never run them as a page.
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'")
	if _, err := io.Copy(w, rc); err != nil {
		s.log.Debug("download cut short", "err", err)
	}
}

func writeJSONValue(w http.ResponseWriter, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		writeError(w, internal("The answer could not be encoded."))
		return
	}
	writeJSON(w, http.StatusOK, b)
}
