package proxy

import (
	"context"
	"os/exec"
	"time"
)

// runGsettings prints GNOME's proxy settings, its schema's and the
// schemas below it (http, https, socks), a key a line. A desktop without
// gsettings or the schema answers with an error.
func runGsettings(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second) // a stuck settings daemon must not hold Hoist
	defer cancel()
	out, err := exec.CommandContext(ctx, "gsettings", "list-recursively", "org.gnome.system.proxy").Output()
	return string(out), err
}
