package media

import (
	"errors"
	"io/fs"
	"path/filepath"

	"hoist/engine/fact"
)

// displayName is how a path is named in a fact: its last element.
func displayName(path string) string {
	if path == "" {
		return ""
	}
	return filepath.Base(path)
}

// problemFor turns an error from the operating system about path into a Problem.
func problemFor(path string, err error) *Problem {
	switch {
	case errors.Is(err, fs.ErrNotExist) || isNotDir(err):
		return &Problem{Path: path, code: fact.FileMissing, kind: ErrMissing, cause: err}
	case errors.Is(err, fs.ErrPermission):
		return &Problem{Path: path, code: fact.FileNotAllowed, kind: ErrUnreadable, cause: err}
	case isLoop(err):
		return loopProblem(path, err)
	default:
		return &Problem{Path: path, code: fact.FileUnreadable, os: osReason(err), kind: ErrUnreadable, cause: err}
	}
}

// folderProblemFor is problemFor for a folder whose list of files cannot be read.
func folderProblemFor(path string, err error) *Problem {
	if errors.Is(err, fs.ErrPermission) {
		return &Problem{Path: path, code: fact.FolderNotAllowed, kind: ErrUnreadable, cause: err}
	}
	return problemFor(path, err)
}

func loopProblem(path string, err error) *Problem {
	return &Problem{Path: path, code: fact.FileLoop, kind: ErrLoop, cause: err}
}

func folderProblem(path string) *Problem {
	return &Problem{Path: path, code: fact.FileIsFolder, kind: ErrIsFolder}
}

func unknownSizeProblem(path string) *Problem {
	return &Problem{Path: path, code: fact.FileUnknownSize, kind: ErrNotRegular}
}

func notRegularProblem(path string, mode fs.FileMode) *Problem {
	return &Problem{Path: path, code: fact.FileSpecial, special: specialKind(mode), kind: ErrNotRegular}
}

// specialKind names a special file as fact.FileSpecial's "kind" does: pipe,
// socket, device, link, or "" for another.
func specialKind(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeNamedPipe != 0:
		return "pipe"
	case mode&fs.ModeSocket != 0:
		return "socket"
	case mode&fs.ModeCharDevice != 0, mode&fs.ModeDevice != 0:
		return "device"
	case mode&fs.ModeSymlink != 0:
		return "link"
	}
	return ""
}

// osReason is the operating system's own short reason, without the path.
func osReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
