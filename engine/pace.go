package engine

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"hoist/engine/dest"
	"hoist/engine/upload"
)

// Google counts some APIs' use per user in units a second (Gmail: 25 an
// import or insert, 100 a send, 10 a draft, of 250 a second, as a moving
// average) and answers 429 past it. A mailbox of thousands of small
// emails would pass it at once, and each 429 costs a backoff; so the queue
// spends an account's units itself, never more than its kind allows
// within any second of its clock (Options.Clock): every request that
// starts an upload (one that sends the file at once, or opens a session),
// its retries too, waits for its turn. A 429 that comes all the same is
// waited out by the uploader's backoff, as before.
type pacer struct {
	clock upload.Clock

	mu    sync.Mutex
	spent map[string][]spent // by account at its server
}

type spent struct {
	at    time.Time
	units int
}

// paceKey is whose quota an upload to d spends: the account's, at the
// server it goes to, for the mailbox it names.
func paceKey(d dest.Destination) string {
	return string(d.Kind.Family()) + "\x00" + d.Account + "\x00" + d.BaseURL + "\x00" + d.Params["user"]
}

// take waits until d's account may spend an upload's units within the
// second, and spends them; an error only when ctx ends first. A kind that
// Google does not pace by requests returns at once.
func (p *pacer) take(ctx context.Context, d dest.Destination) error {
	info := d.Kind.Info()
	cost, limit := info.Cost, info.PerSecond
	if cost <= 0 || limit <= 0 {
		return nil
	}
	cost = min(cost, limit)
	key := paceKey(d)
	for {
		p.mu.Lock()
		now := p.clock.Now()
		list := p.spent[key]
		i := 0
		for i < len(list) && !list[i].at.After(now.Add(-time.Second)) {
			i++
		}
		list = list[i:]
		sum := 0
		for _, s := range list {
			sum += s.units
		}
		if sum+cost <= limit {
			if p.spent == nil {
				p.spent = map[string][]spent{}
			}
			p.spent[key] = append(list, spent{at: now, units: cost})
			p.mu.Unlock()
			return nil
		}
		p.spent[key] = list
		// The oldest spending leaves the second first; the next may have to
		// as well, which the next turn finds.
		wait := list[0].at.Add(time.Second).Sub(now)
		p.mu.Unlock()
		if err := p.clock.Sleep(ctx, max(wait, time.Millisecond)); err != nil {
			return err
		}
	}
}

// client is c, its requests that start an upload to d paced; c itself
// for a kind Google does not pace by requests.
func (p *pacer) client(c *http.Client, d dest.Destination) *http.Client {
	if info := d.Kind.Info(); info.Cost <= 0 || info.PerSecond <= 0 {
		return c
	}
	paced := *c
	rt := c.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	paced.Transport = &pacedTransport{rt: rt, p: p, d: d}
	return &paced
}

// pacedTransport waits for its turn before each request that starts an
// upload: the requests Google counts. A session's chunks and status
// queries (they name their session) and the lookups go at once.
type pacedTransport struct {
	rt http.RoundTripper
	p  *pacer
	d  dest.Destination
}

func (t *pacedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != http.MethodGet && strings.HasPrefix(r.URL.Path, "/upload/") && !r.URL.Query().Has("upload_id") {
		if err := t.p.take(r.Context(), t.d); err != nil {
			if r.Body != nil {
				r.Body.Close()
			}
			return nil, err
		}
	}
	return t.rt.RoundTrip(r)
}
