package emulator

import (
	"net/http"
	"sync"
	"time"
)

// Gmail counts what each user spends of a quota in units per second (a
// moving average): 25 units an insert or import, 100 a send, 10 a draft
// created, 15 one updated, of 250 a second. The emulator counts them the
// same way over the last second of its clock (Options.Now), and, when
// Options.GmailUnitsPerSecond is set, answers a request past it as Gmail
// does: 429 rateLimitExceeded.
var gmailCost = map[gmailOp]int{gmailInsert: 25, gmailImport: 25, gmailSend: 100, gmailDraftCreate: 10, gmailDraftUpdate: 15}

// gmailQuota is what each user spent in the last second.
type gmailQuota struct {
	mu    sync.Mutex
	spent map[string][]spend // by user
	peak  int                // the most units spent within one second, ever
}

type spend struct {
	at    time.Time
	units int
}

// spend counts op for user at now, or refuses it when limit (> 0) would be
// passed within the second.
func (q *gmailQuota) spend(user string, op gmailOp, now time.Time, limit int) *apiError {
	cost := gmailCost[op]
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.spent == nil {
		q.spent = map[string][]spend{}
	}
	list := q.spent[user]
	i := 0
	for i < len(list) && !list[i].at.After(now.Add(-time.Second)) {
		i++
	}
	list = list[i:]
	sum := 0
	for _, s := range list {
		sum += s.units
	}
	if limit > 0 && sum+cost > limit {
		q.spent[user] = list
		return newError(http.StatusTooManyRequests, "rateLimitExceeded", "User-rate limit exceeded.  Retry after %s", now.Add(time.Second).UTC().Format(time.RFC3339))
	}
	q.spent[user] = append(list, spend{at: now, units: cost})
	q.peak = max(q.peak, sum+cost)
	return nil
}

// GmailPeakUnits is the most of Gmail's per-user quota units spent within
// any one second of the emulator's clock, by any user: what tells whether
// a client kept to Gmail's pace.
func (s *Server) GmailPeakUnits() int {
	s.gmailQuota.mu.Lock()
	defer s.gmailQuota.mu.Unlock()
	return s.gmailQuota.peak
}
