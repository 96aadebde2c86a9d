//go:build !windows && !darwin

package words

import "os"

func systemSources() sources { return sources{getenv: os.Getenv} }
