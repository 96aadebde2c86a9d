// Package google fetches the lists behind Hoist's pickers, so people choose
// names instead of typing ids, and turns names typed by hand into the ids
// Google takes, before any upload. Each kind of destination declares its
// lists (dest.List: where, which fields); this package reads any of them
// with an HTTP client that already carries the account's authorization; it
// knows nothing of signing in. What goes wrong is said as a fact.
package google

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"hoist/engine/dest"
	"hoist/engine/fact"
)

// maxPages bounds how many pages are fetched for one list.
const maxPages = 20

// maxBody bounds what is read of one answer.
const maxBody = 8 << 20

// Lister fetches lists from Google with an account's authorized client.
type Lister struct {
	Client *http.Client // carries the account's authorization
	// BaseURL, when set, replaces Google's scheme and host (the sandbox).
	BaseURL string
}

// Item is one value of a list: the value Google takes, and what people
// know it by.
type Item struct {
	ID    string
	Words string   // the item's names, joined: "Northwind Media — trafficking@…"
	Names []string // each of them, as Google wrote them
}

// Picked is how a picker shows the item: its words, and its id where that
// says something more.
func (it Item) Picked() string {
	switch {
	case it.Words == "":
		return it.ID
	case it.Words == it.ID:
		return it.Words
	}
	return it.Words + " (" + it.ID + ")"
}

// Error is a list Google did not give: its fact says why, with Google's
// own words.
type Error struct{ fact fact.Fact }

func (e *Error) Error() string   { return e.fact.String() }
func (e *Error) Fact() fact.Fact { return e.fact }

// Status is the HTTP status Google answered with; 0 when none came.
func (e *Error) Status() int { return e.fact.Status }

// ErrUnreachable matches a list that could not be fetched for want of a network.
var ErrUnreachable = errors.New("google: unreachable")

// listError is the error of list l for d, said by code.
func listError(code fact.Code, l *dest.List, d dest.Destination, cause error) error {
	f := fact.Fact{Code: code, Dest: string(d.Kind), Args: map[string]string{"list": l.Name}}
	if cause != nil {
		return fmt.Errorf("%w: %w", &Error{f}, cause)
	}
	return &Error{f}
}

// List fetches the list l for d's settings (a profile's advertisers need
// the profile), page by page where it comes in pages.
func (l *Lister) List(ctx context.Context, list *dest.List, d dest.Destination) ([]Item, error) {
	path, needs := list.Path(d)
	if needs != "" {
		e := listError(fact.ListNeeds, list, d, nil).(*Error)
		e.fact.Field = needs
		return nil, e
	}
	path, own, _ := strings.Cut(path, "?") // a query of the settings' own: the buckets of ?project=…
	q, err := url.ParseQuery(own)
	if err != nil {
		return nil, listError(fact.ListUnreadable, list, d, err)
	}
	for k, v := range list.Query {
		q[k] = v
	}
	var all []Item
	for range maxPages {
		var page map[string]json.RawMessage
		if err := l.get(ctx, list, d, path, q, &page); err != nil {
			return all, err
		}
		items, err := readItems(list, page[list.Items])
		if err != nil {
			return all, listError(fact.ListUnreadable, list, d, err)
		}
		all = append(all, items...)
		var next string
		_ = json.Unmarshal(page["nextPageToken"], &next)
		if !list.Pages || next == "" {
			break
		}
		q.Set("pageToken", next)
	}
	return all, nil
}

// readItems reads a page's items: each an object whose fields name it.
func readItems(list *dest.List, raw json.RawMessage) ([]Item, error) {
	if len(raw) == 0 {
		return nil, nil // a list with nothing in it has no field at all
	}
	var objects []map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // ids written as numbers keep every digit
	if err := dec.Decode(&objects); err != nil {
		return nil, err
	}
	out := make([]Item, 0, len(objects))
	for _, o := range objects {
		it := Item{ID: text(o[list.ID])}
		var words []string
		for _, w := range list.Words {
			if s := text(o[w]); s != "" {
				words = append(words, s)
			}
		}
		it.Names, it.Words = words, strings.Join(words, " — ")
		if it.ID != "" {
			out = append(out, it)
		}
	}
	return out, nil
}

// text is a JSON value as text: Google writes ids as strings or numbers.
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	}
	return ""
}

func (l *Lister) get(ctx context.Context, list *dest.List, d dest.Destination, path string, q url.Values, into any) error {
	base := list.Host
	if l.BaseURL != "" {
		base = strings.TrimRight(l.BaseURL, "/")
	}
	u := base + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return listError(fact.ListUnreadable, list, d, err)
	}
	req.Header.Set("Accept", "application/json")
	client := l.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var signIn interface{ Retryable() bool }
		if errors.As(err, &signIn) {
			return err // the sign-in's own fact
		}
		e := listError(fact.ListUnreachable, list, d, nil).(*Error)
		e.fact.Google = stripURL(err).Error()
		return fmt.Errorf("%w: %w: %w", e, ErrUnreachable, stripURL(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		e := listError(fact.ListUnreachable, list, d, nil).(*Error)
		e.fact.Google = stripURL(err).Error()
		return fmt.Errorf("%w: %w: %w", e, ErrUnreachable, stripURL(err))
	}
	if resp.StatusCode/100 != 2 {
		return googleError(resp.StatusCode, body, list, d)
	}
	if err := json.Unmarshal(body, into); err != nil {
		return listError(fact.ListUnreadable, list, d, err)
	}
	return nil
}

// stripURL keeps the request's address (which may carry ids) out of the message.
func stripURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// googleError reads Google's JSON error shape: its message goes in the
// fact as Google's own words, with the status.
func googleError(status int, body []byte, list *dest.List, d dest.Destination) error {
	var shape struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	code := fact.ListRefused
	switch status {
	case http.StatusUnauthorized:
		code = fact.ListSignInAgain
	case http.StatusForbidden:
		code = fact.ListForbidden
	}
	e := listError(code, list, d, nil).(*Error)
	e.fact.Status = status
	if json.Unmarshal(body, &shape) == nil {
		e.fact.Google = strings.TrimSuffix(strings.TrimSpace(shape.Error.Message), ".")
	}
	if e.fact.Google == "" {
		e.fact.Google = http.StatusText(status)
	}
	return e
}
