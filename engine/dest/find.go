package dest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"hoist/engine/media"
	"hoist/engine/upload"
)

// Finding what an upload made. When an upload's answer is lost, or names
// nothing, the uploader asks the destination before it sends the file again
// (see engine/upload/lookup.go). Each kind that can be asked says how in
// Plan.Find: Drive by the job's mark in appProperties, Gmail by the email's
// Message-ID, Cloud Storage by the object's name under a generation
// precondition. YouTube and Campaign Manager 360 offer no cheap way to look.

// FindWay is one way to look for what an upload made.
type FindWay struct {
	// Scopes is what looking this way needs; nil: the upload's own. Of
	// several ways, the first whose scopes the sign-in has is used; when
	// it has none of them, the last one's are asked for.
	Scopes []string
	// Find asks the destination with a client that carries Scopes.
	Find func(ctx context.Context, c *http.Client) (upload.Found, error)
}

// finder is a kind whose uploads can be looked for.
type finder interface {
	// findable marks the upload of file by job where the destination keeps
	// a mark, and says in p how to look for what it made.
	findable(d Destination, file media.Info, job string, p *Plan)
}

// marker is a kind that notes where its destination stands before an
// upload is sent, so that a lookup after a lost answer tells this upload's
// object from an older one alike (Gmail: the mailbox's historyId).
type marker interface {
	mark(ctx context.Context, d Destination, file media.Info, clients Clients, now time.Time) string
}

// Clients gives an HTTP client that carries scopes (nil: the upload's
// own) if the sign-in already allows them, else an error: a mark is taken
// with what was given, never by asking for more.
type Clients func(ctx context.Context, scopes []string) (*http.Client, error)

// Mark notes where d stands just before file is sent (ok false: d's kind
// needs no note). The caller keeps the note with the job, durably, before
// the body goes out, and hands it back in Plan.Since.
func (d Destination) Mark(ctx context.Context, file media.Info, clients Clients, now time.Time) (string, bool) {
	m, ok := d.of().(marker)
	if !ok {
		return "", false
	}
	s := m.mark(ctx, d, file, clients, now)
	return s, s != ""
}

// PlanFor is Plan for one job: the job's id marks the upload where the
// destination keeps a mark, and Plan.Find says how to look for what the
// upload made.
func (d Destination) PlanFor(info media.Info, job string) (Plan, error) {
	p, err := d.Plan(info)
	if err != nil {
		return p, err
	}
	return d.Findable(p, info, job), nil
}

// Findable is p, made for the file info of job when it was added, with
// the ways d's kind has to find the upload after a lost answer.
func (d Destination) Findable(p Plan, info media.Info, job string) Plan {
	if f, ok := d.of().(finder); ok {
		info.MIME = p.Target.ContentType
		f.findable(d, info, job, &p)
	}
	return p
}

// identifies reports whether an answer of d's names what was made.
func identifies(d Destination) func([]byte) bool {
	return func(body []byte) bool {
		r, err := ParseResult(d, body)
		return err == nil && r.ID != ""
	}
}

// maxFound bounds an answer read while looking.
const maxFound = 4 << 20

// LookError is an error answer to a request made to look for an upload.
type LookError struct {
	Status  int
	Message string // the server's own words, "" when none
}

func (e *LookError) Error() string {
	s := fmt.Sprintf("the server answered %d", e.Status)
	if t := http.StatusText(e.Status); t != "" {
		s += " " + t
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// getJSON asks for u and reads its JSON answer into v; found false for 404.
func getJSON(ctx context.Context, c *http.Client, u string, v any) (found bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, fmt.Errorf("%w: the address to look at cannot be built", ErrInvalid)
	}
	resp, err := c.Do(req)
	if err != nil {
		var ue interface{ Unwrap() error }
		if errors.As(err, &ue) {
			err = ue.Unwrap() // its text carries the address
		}
		return false, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxFound))
	if err != nil {
		return false, err
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return false, nil
	case resp.StatusCode/100 != 2:
		e := &LookError{Status: resp.StatusCode}
		var g struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(body, &g) == nil {
			e.Message = Redact(g.Error.Message)
		}
		return false, e
	}
	if err := json.Unmarshal(bytes.TrimSpace(body), v); err != nil {
		return false, fmt.Errorf("the answer to a lookup could not be read: %w", err)
	}
	return true, nil
}

// quoteQuery writes s inside single quotes of a Drive query.
func quoteQuery(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// ItemName is what the destination calls the file's upload, for someone
// looking for it there: Campaign Manager 360's asset name, a video's title,
// an email's subject, else the file's name.
func (d Destination) ItemName(file media.Info) string {
	p, err := d.Plan(file)
	if err == nil && len(p.Target.Metadata) > 0 {
		var meta struct {
			Name            string `json:"name"`
			AssetIdentifier *struct {
				Name string `json:"name"`
			} `json:"assetIdentifier"`
			Snippet *struct {
				Title string `json:"title"`
			} `json:"snippet"`
		}
		if json.Unmarshal(p.Target.Metadata, &meta) == nil {
			switch {
			case meta.AssetIdentifier != nil && meta.AssetIdentifier.Name != "":
				return meta.AssetIdentifier.Name
			case meta.Snippet != nil && meta.Snippet.Title != "":
				return meta.Snippet.Title
			case meta.Name != "":
				return meta.Name
			}
		}
	}
	if file.Email != nil && file.Email.Subject != "" {
		return file.Email.Subject
	}
	return file.Name
}
