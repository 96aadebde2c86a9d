package words

import (
	"context"
	"os"
	"os/exec"
	"time"
)

func systemSources() sources {
	return sources{getenv: os.Getenv, apple: appleLanguages}
}

// appleLanguages asks for the languages chosen in System Settings.
func appleLanguages() string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "defaults", "read", "-g", "AppleLanguages").Output()
	if err != nil {
		return ""
	}
	return string(out)
}
