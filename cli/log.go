package cli

import (
	"io"
	"log/slog"

	"hoist/auth"
)

// logger writes warnings and errors as text, with every secret scrubbed.
func logger(w io.Writer) *slog.Logger {
	h := slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn})
	return slog.New(auth.RedactingHandler(h))
}
