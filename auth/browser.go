package auth

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// errNoDisplay: on Linux without a graphical session, xdg-open would start
// a text browser inside the terminal.
var errNoDisplay = errors.New("no graphical display to open a browser on")

// OpenSystemBrowser opens u in the user's default browser.
func OpenSystemBrowser(u string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", u)
	case "darwin":
		cmd = exec.Command("open", u)
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return errNoDisplay
		}
		opener, err := exec.LookPath("xdg-open")
		if err != nil {
			// Without xdg-utils, the desktop's portal opens it.
			return openWithPortal(u)
		}
		cmd = exec.Command(opener, u)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }() // ends when the opener exits
	select {
	case err := <-exited:
		return err
	case <-time.After(3 * time.Second):
		return nil // still handing over to the browser, which is a good sign
	}
}
