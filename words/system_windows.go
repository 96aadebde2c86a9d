package words

import (
	"os"

	"golang.org/x/sys/windows"
)

func systemSources() sources {
	return sources{getenv: os.Getenv, windows: windowsLanguages}
}

// windowsLanguages are the user's display languages, best first ("fa-IR").
func windowsLanguages() []string {
	list, err := windows.GetUserPreferredUILanguages(windows.MUI_LANGUAGE_NAME)
	if err != nil {
		return nil
	}
	return list
}
