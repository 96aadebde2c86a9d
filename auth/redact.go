package auth

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"hoist/redact"
)

// redacted replaces every secret.
const redacted = redact.Mark

// Redact removes access tokens, refresh tokens, ID tokens, client secrets,
// authorization header values, authorization codes and upload session ids
// from s. Use it on any text about to be shown or logged.
func Redact(s string) string { return redact.Text(s) }

// sensitiveKeys are attribute names whose values are dropped whole, written
// lower-case without separators.
var sensitiveKeys = map[string]bool{
	"authorization": true, "accesstoken": true, "refreshtoken": true, "idtoken": true,
	"token": true, "clientsecret": true, "secret": true, "password": true, "code": true,
	"codeverifier": true, "sessionuri": true, "uploadid": true, "cookie": true, "setcookie": true,
}

func sensitiveKey(key string) bool {
	k := strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', ' ', '.':
			return -1
		}
		return r
	}, strings.ToLower(key))
	return sensitiveKeys[k]
}

// RedactingHandler wraps inner so that no record reaches it with a secret:
// the message and every attribute (in groups too, errors and other values
// formatted first) pass through Redact, and attributes named like a secret
// ("token", "authorization", "session_uri", …) lose their value.
func RedactingHandler(inner slog.Handler) slog.Handler {
	if h, ok := inner.(*redactingHandler); ok {
		return h
	}
	return &redactingHandler{inner: inner}
}

type redactingHandler struct {
	inner slog.Handler
}

func (h *redactingHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.inner.Enabled(ctx, level)
}

func (h *redactingHandler) Handle(ctx context.Context, r slog.Record) error {
	clean := slog.NewRecord(r.Time, r.Level, Redact(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		clean.AddAttrs(redactAttr(a))
		return true
	})
	return h.inner.Handle(ctx, clean)
}

func (h *redactingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = redactAttr(a)
	}
	return &redactingHandler{inner: h.inner.WithAttrs(clean)}
}

func (h *redactingHandler) WithGroup(name string) slog.Handler {
	return &redactingHandler{inner: h.inner.WithGroup(Redact(name))}
}

func redactAttr(a slog.Attr) slog.Attr {
	a.Key = Redact(a.Key)
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		group := v.Group()
		clean := make([]slog.Attr, len(group))
		for i, g := range group {
			clean[i] = redactAttr(g)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(clean...)}
	}
	if sensitiveKey(a.Key) {
		return slog.String(a.Key, redacted)
	}
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, Redact(v.String()))
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			return slog.String(a.Key, Redact(x.Error()))
		case []byte:
			return slog.String(a.Key, Redact(string(x)))
		default:
			return slog.String(a.Key, Redact(fmt.Sprintf("%+v", x)))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
