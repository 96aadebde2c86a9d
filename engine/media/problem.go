package media

import (
	"errors"

	"fmt"
	"hoist/engine/fact"
	"io/fs"
	"path/filepath"
)

// displayName is how a path is named in a sentence: its last element.
func displayName(path string) string {
	if path == "" {
		return "(a file with no name)"
	}
	return filepath.Base(path)
}

// problemFor turns an error from the operating system about path into a Problem.
func problemFor(path string, err error) *Problem {
	name := displayName(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) || isNotDir(err):
		return &Problem{Path: path, Message: fmt.Sprintf("%s does not exist (it may have been moved or deleted).", name), code: fact.FileMissing, kind: ErrMissing, cause: err}
	case errors.Is(err, fs.ErrPermission):
		return &Problem{Path: path, Message: fmt.Sprintf("Hoist is not allowed to read %s (check the file's permissions).", name), code: fact.FileNotAllowed, kind: ErrUnreadable, cause: err}
	case isLoop(err):
		return loopProblem(path, err)
	default:
		return &Problem{Path: path, Message: fmt.Sprintf("Hoist could not read %s (%s).", name, osReason(err)), code: fact.FileUnreadable, os: osReason(err), kind: ErrUnreadable, cause: err}
	}
}

// folderProblemFor is problemFor for a folder whose list of files cannot be read.
func folderProblemFor(path string, err error) *Problem {
	if errors.Is(err, fs.ErrPermission) {
		return &Problem{Path: path, Message: fmt.Sprintf("Hoist is not allowed to open the folder %s (check its permissions).", displayName(path)), code: fact.FolderNotAllowed, kind: ErrUnreadable, cause: err}
	}
	return problemFor(path, err)
}

func loopProblem(path string, err error) *Problem {
	return &Problem{Path: path, Message: fmt.Sprintf("%s is a link that leads in a circle, so Hoist cannot follow it.", displayName(path)), code: fact.FileLoop, kind: ErrLoop, cause: err}
}

func folderProblem(path string) *Problem {
	return &Problem{Path: path, Message: fmt.Sprintf("%s is a folder, not a file.", displayName(path)), code: fact.FileIsFolder, kind: ErrIsFolder}
}

func unknownSizeProblem(path string) *Problem {
	return &Problem{Path: path, Message: fmt.Sprintf("%s is not a regular file with a known size (it says 0 bytes but has content, like the files in /proc), so it cannot be uploaded.", displayName(path)), code: fact.FileUnknownSize, kind: ErrNotRegular}
}

func notRegularProblem(path string, mode fs.FileMode) *Problem {
	return &Problem{Path: path, Message: fmt.Sprintf("%s is a %s, not a regular file, so it cannot be uploaded.", displayName(path), specialKind(mode)), code: fact.FileSpecial, special: specialFact(mode), kind: ErrNotRegular}
}

// specialKind names a file that is neither a folder nor a regular file.
func specialKind(mode fs.FileMode) string {
	words, _ := special(mode)
	return words
}

// specialFact names a special file as fact.FileSpecial's "kind" does.
func specialFact(mode fs.FileMode) string {
	_, kind := special(mode)
	return kind
}

// special names a special file in words and as a fact's kind ("" for
// none of those named).
func special(mode fs.FileMode) (words, kind string) {
	switch {
	case mode&fs.ModeNamedPipe != 0:
		return "named pipe", "pipe"
	case mode&fs.ModeSocket != 0:
		return "socket", "socket"
	case mode&fs.ModeCharDevice != 0, mode&fs.ModeDevice != 0:
		return "device", "device"
	case mode&fs.ModeSymlink != 0:
		return "link", "link"
	}
	return "special file", ""
}

// osReason is the operating system's own short reason, without the path.
func osReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
