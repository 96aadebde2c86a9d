package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets a test run Hoist itself: the test binary started again with
// HOIST_TEST_MAIN set runs main with the arguments it names.
func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv("HOIST_TEST_MAIN"); ok {
		os.Args = append([]string{"hoist"}, strings.Fields(args)...)
		main()
		return
	}
	os.Exit(m.Run())
}

// TestNoBusOutlivesHoist: started where the desktop has no session bus
// (none given, none in the runtime folder), Hoist signs out (the keychain)
// without starting a bus: dbus-launch, whose dbus-daemon would outlive it,
// is never run.
func TestNoBusOutlivesHoist(t *testing.T) {
	home := t.TempDir()
	bin := t.TempDir()
	mark := filepath.Join(home, "dbus-launch-ran")
	script := "#!/bin/sh\ntouch '" + mark + "'\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "dbus-launch"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/run/user/0/bus"); err == nil && os.Getuid() == 0 {
		t.Fatal("this machine has a session bus at /run/user/0/bus; the test needs one without")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DBUS_SESSION_BUS_ADDRESS=") && !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "HOIST_TEST_MAIN=logout someone@example.com", "PATH="+bin+":"+os.Getenv("PATH"),
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"), "XDG_RUNTIME_DIR="+home)
	out, _ := cmd.CombinedOutput() // with no keychain, hoist logout may well fail; that is not the question
	if _, err := os.Stat(mark); err == nil {
		t.Fatalf("hoist logout ran dbus-launch, whose dbus-daemon outlives Hoist; it said:\n%s", out)
	}
	if len(out) == 0 {
		t.Fatal("hoist logout said nothing")
	}
	t.Logf("hoist logout said: %s", out)
}
