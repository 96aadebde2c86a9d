package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"hoist/engine/upload"
)

// The emails of a mailbox file may go under labels by name (Google
// Takeout's, and one named after the file: dest.Destination.MailboxLabels),
// where Gmail takes label ids. The queue looks the names up in the
// mailbox's labels (users.labels.list, once per mailbox and run) and makes
// those it lacks (users.labels.create, once each), with the gmail.labels
// permission the setting asked for at sign-in.

// labelBook is what the queue learnt of each mailbox's labels in this run.
type labelBook struct {
	mu sync.Mutex
	// byURL: the labels' address of a mailbox → its labels, by name in
	// lower case → id; nil until listed.
	byURL map[string]map[string]string
}

// id is the id of the label name in the mailbox whose labels are at url,
// made there when it has none by that name. One at a time: two emails
// asking for a new label make it once.
func (b *labelBook) id(ctx context.Context, client *http.Client, url, name string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byURL == nil {
		b.byURL = map[string]map[string]string{}
	}
	known := b.byURL[url]
	if known == nil {
		var err error
		if known, err = listLabels(ctx, client, url); err != nil {
			return "", err
		}
		b.byURL[url] = known
	}
	key := strings.ToLower(name)
	if id, ok := known[key]; ok {
		return id, nil
	}
	id, err := createLabel(ctx, client, url, name)
	if err != nil {
		return "", err
	}
	known[key] = id
	return id, nil
}

type gmailLabel struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// listLabels reads a mailbox's labels: name in lower case → id.
func listLabels(ctx context.Context, client *http.Client, url string) (map[string]string, error) {
	var list struct {
		Labels []gmailLabel `json:"labels"`
	}
	if err := labelCall(ctx, client, http.MethodGet, url, nil, &list); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(list.Labels))
	for _, l := range list.Labels {
		out[strings.ToLower(l.Name)] = l.ID
	}
	return out, nil
}

// createLabel makes the label name and gives its id.
func createLabel(ctx context.Context, client *http.Client, url, name string) (string, error) {
	body, err := json.Marshal(map[string]string{"name": name, "labelListVisibility": "labelShow", "messageListVisibility": "show"})
	if err != nil {
		return "", err
	}
	var made gmailLabel
	if err := labelCall(ctx, client, http.MethodPost, url, body, &made); err != nil {
		return "", err
	}
	if made.ID == "" {
		return "", fmt.Errorf("gmail made the label %q without an id: %w", name, upload.ErrBadResponse)
	}
	return made.ID, nil
}

// labelCall makes one call of Gmail's labels and reads its answer into
// out; Google's refusal is an *upload.APIError, said as any refusal is.
func labelCall(ctx context.Context, client *http.Client, method, url string, body []byte, out any) error {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return upload.AnswerError(resp.StatusCode, resp.Header, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("reading Gmail's labels: %w: %w", upload.ErrBadResponse, err)
	}
	return nil
}
