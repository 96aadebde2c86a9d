package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"hoist/internal/winlink"
)

// sendToLink is the name of Hoist's entry in a Windows user's "Send to" menu.
const sendToLink = "Hoist.lnk"

// SetupUser runs `hoist setup-user [--remove] [--all-users]`, on Windows
// only: the "Send to → Hoist" entry of the user who runs it, for a Hoist
// installed for every user of the computer (the MSI package). Windows runs
// it once for each user at their next sign-in (Active Setup); the package
// removes every user's entry (--remove --all-users) when Hoist is removed.
// An entry that points to another Hoist (a user's own install) is left alone.
func SetupUser(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("hoist setup-user", flag.ContinueOnError)
	fs.SetOutput(stderr)
	remove := fs.Bool("remove", false, "remove the entry")
	all := fs.Bool("all-users", false, "every user's entry (with --remove)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || (*all && !*remove) {
		return exitUsage
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "hoist setup-user: %v\n", err)
		return exitFailed
	}
	target := filepath.Join(filepath.Dir(exe), "Hoist.exe")
	folders := []string{userSendTo(os.Getenv("APPDATA"))}
	if *all {
		folders = everySendTo(os.Getenv("USERPROFILE"))
	}
	if *remove {
		err = removeSendTo(folders, target)
	} else {
		err = makeSendTo(folders[0], target)
	}
	if err != nil {
		fmt.Fprintf(stderr, "hoist setup-user: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// userSendTo is the "Send to" folder in a user's roaming application data.
func userSendTo(appData string) string {
	return filepath.Join(appData, "Microsoft", "Windows", "SendTo")
}

// everySendTo is every user's "Send to" folder: the profiles beside the
// given one's (C:\Users\*).
func everySendTo(profile string) []string {
	var out []string
	users := filepath.Dir(profile)
	entries, _ := os.ReadDir(users)
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, userSendTo(filepath.Join(users, e.Name(), "AppData", "Roaming")))
		}
	}
	return out
}

// makeSendTo writes the entry in folder, pointing to target.
func makeSendTo(folder, target string) error {
	data, err := winlink.Link{Target: target}.Encode()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return err
	}
	tmp := filepath.Join(folder, sendToLink+".new")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(folder, sendToLink))
}

// removeSendTo removes the entries in folders that point to target.
func removeSendTo(folders []string, target string) error {
	var errs []error
	for _, f := range folders {
		link := filepath.Join(f, sendToLink)
		data, err := os.ReadFile(link)
		if err != nil {
			continue
		}
		if got := winlink.Target(data); got == "" || !strings.EqualFold(got, target) { // Windows paths: case does not matter
			continue
		}
		if err := os.Remove(link); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
