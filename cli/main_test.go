package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"
)

// childEnv makes the test binary run the command line instead of the tests,
// so tests can start, kill and restart a real `hoist` process.
const childEnv = "HOIST_TEST_RUN_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := Run(ctx, os.Args[1:], Env{})
		stop()
		os.Exit(code)
	}
	// The tests read the command line's English; a test of another
	// language sets the locale of the process it starts.
	for _, v := range []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES"} {
		os.Unsetenv(v)
	}
	os.Setenv("LANG", "C.UTF-8")
	os.Exit(m.Run())
}
