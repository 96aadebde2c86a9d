package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"hoist/words"
)

// TestNoDesktopSaysSo: Hoist started without a desktop (over SSH, from a
// text console, or with a display that is gone) says in one sentence, in
// the user's language, that the window needs a desktop and that hoist send
// works without one, and exits with status 1: it stopped with a Go stack
// trace ("NotInitialized: The GLFW library is not initialized").
func TestNoDesktopSaysSo(t *testing.T) {
	for _, tc := range []struct{ lang, code, display string }{
		{"C.UTF-8", "en", ""},
		{"fa_IR.UTF-8", "fa", ""},
		{"ar_EG.UTF-8", "ar", ""},
		{"he_IL.UTF-8", "he", ""},
		{"C.UTF-8", "en", ":987"}, // a display no server answers at
	} {
		t.Run(tc.code+tc.display, func(t *testing.T) {
			home := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			var env []string
			for _, kv := range os.Environ() {
				name, _, _ := strings.Cut(kv, "=")
				switch name {
				case "DISPLAY", "WAYLAND_DISPLAY", "LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "DBUS_SESSION_BUS_ADDRESS":
					continue
				}
				env = append(env, kv)
			}
			if tc.display != "" {
				env = append(env, "DISPLAY="+tc.display)
			}
			cmd.Env = append(env, "HOIST_TEST_MAIN=", "LANG="+tc.lang, "HOME="+home,
				"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
				"XDG_CACHE_HOME="+filepath.Join(home, ".cache"), "XDG_RUNTIME_DIR="+home)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("hoist without a desktop ended with %v, want exit status 1; it said:\n%s", err, out)
			}
			said := strings.TrimSpace(string(out))
			want := "hoist: " + words.New(tc.code).Say("ui.noDesktop", words.Args{"Command": "hoist send"})
			if said != want {
				t.Errorf("hoist without a desktop said:\n%s\nwant:\n%s", said, want)
			}
			if !strings.Contains(want, "hoist send") {
				t.Errorf("the sentence %q does not name hoist send", want)
			}
		})
	}
}
