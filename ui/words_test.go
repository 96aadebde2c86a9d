package ui

import (
	"strings"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/ui/queuelist"
	"hoist/ui/view"
)

func TestSummaryWords(t *testing.T) {
	tests := []struct {
		Name     string
		s        engine.Summary
		canceled int
		want     string
	}{
		{"empty", engine.Summary{ETA: -1}, 0, "The list is empty."},
		{"uploading", engine.Summary{Files: 12, Done: 3, Active: 4, Bytes: 3_400_000_000, BytesDone: 1_200_000_000, Speed: 5e6, ETA: 4 * time.Minute}, 0,
			"3 of 12 files, 1.2 GB of 3.4 GB, about 4 minutes left"},
		{"paused with a failure", engine.Summary{Files: 2, Paused: 1, Failed: 1, Bytes: 2000, BytesDone: 500, ETA: -1}, 0,
			"0 of 2 files, 500 bytes of 2 KB, paused — 1 needs attention"},
		{"one file done", engine.Summary{Files: 1, Done: 1, Bytes: 1000, BytesDone: 1000, ETA: -1}, 0, "1 of 1 file, 1 KB of 1 KB"},
		{"one file canceled", engine.Summary{Files: 1, ETA: -1}, 1, "1 file canceled, nothing left to upload."},
		{"one of three canceled", engine.Summary{Files: 3, Done: 2, Bytes: 2000, BytesDone: 2000, ETA: -1}, 1, "2 of 2 files, 2 KB of 2 KB (1 canceled)"},
		{"only refused", engine.Summary{Files: 1, Failed: 1, ETA: -1}, 0, "0 of 1 file — 1 needs attention"},
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			if got := view.SummaryWords(tt.s, tt.canceled); got != tt.want {
				t.Errorf("summaryWords = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStateWords(t *testing.T) {
	now := time.Date(2026, 2, 2, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		Name string
		v    engine.JobView
		want string
	}{
		{"waiting", engine.JobView{State: engine.Waiting}, "Waiting"},
		{"checking with Google", engine.JobView{State: engine.Checking, DestKind: "gmail-insert", Server: dest.GoogleServer}, "Resuming — checking with Google"},
		{"checking with the sandbox", engine.JobView{State: engine.Checking, DestKind: "sandbox", Server: dest.SandboxServer}, "Resuming — checking with the sandbox"},
		{"retrying counts down", engine.JobView{State: engine.Retrying, Reason: "The connection dropped", RetryAt: now.Add(8 * time.Second)},
			"The connection dropped. Hoist will try again in 8 seconds."},
		{"needs sign-in", engine.JobView{State: engine.Attention, Reason: "Your Google sign-in expired.", Next: "Press Sign in to sign in again; the upload then goes on."},
			"Needs you: Your Google sign-in expired. Press Sign in to sign in again; the upload then goes on."},
		{"refused", engine.JobView{State: engine.Refused, Reason: "photo.png is not an email file"}, "Refused: photo.png is not an email file."},
		{"done with result", engine.JobView{State: engine.Done, Result: &engine.Result{Summary: "Saved as message 18c2"}},
			"Done, unchecked (the server gave no checksum). Saved as message 18c2."},
		{"done and verified", engine.JobView{State: engine.Done, Result: &engine.Result{Verified: "crc32c"}},
			"Done, checksum matched (CRC32C)"},
		{"done, size only", engine.JobView{State: engine.Done, Result: &engine.Result{Verified: "size"}}, "Done, size matched"},
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			if got := view.StateWords(tt.v, now); got != tt.want {
				t.Errorf("stateWords = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestPauseSaysWhyTheRowShowsLess: a file paused while its bytes were on
// their way shows only what the server confirmed, less than a moment
// before, and its row says why, in every language; a pause that gave up
// only a moment's sending (a 256 KiB request) says only that the file is
// paused.
func TestPauseSaysWhyTheRowShowsLess(t *testing.T) {
	now := time.Date(2026, 2, 2, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ code, want string }{
		{"en", "Paused: The last 208 MB sent had not yet been confirmed when you paused, so they are sent again when you resume."},
		{"fa", "۲۰۸ مگابایت"},
		{"ar", "٢٠٨"},
		{"he", "208"},
	} {
		Speak(t, tc.code)
		v := engine.JobView{State: engine.Paused, Size: 1_600_000_000, Committed: 262_144, Unconfirmed: 208_000_000}
		got := view.StateWords(v, now)
		lost := view.Say("ui.paused.unconfirmed", "Size", view.Speaking().Size(v.Unconfirmed))
		if !strings.Contains(got, lost) || !strings.Contains(got, tc.want) {
			t.Errorf("%s: a pause that gave up 208 MB says %q", tc.code, got)
		}
		if got := view.StateWords(engine.JobView{State: engine.Paused, Size: 1 << 30, Committed: 500, Unconfirmed: 256 << 10}, now); got != view.Speaking().State("paused") {
			t.Errorf("%s: a pause that gave up nothing says %q", tc.code, got)
		}
	}
}

func TestTypeWords(t *testing.T) {
	for mime, want := range map[string]string{
		"image/png": "PNG picture", "image/svg+xml": "SVG picture", "video/mp4": "MP4 video",
		"message/rfc822": "Email", "application/pdf": "PDF document", "application/octet-stream": "File",
	} {
		if got := queuelist.TypeWords(mime); got != want {
			t.Errorf("typeWords(%q) = %q, want %q", mime, got, want)
		}
	}
}
