package media

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"hoist/engine/fact"
)

// Expand turns what the user dropped or named into the list of files to upload.
//
// Files named directly pass through, even hidden ones: the user chose them.
// Folders become their regular files, recursively, in name order; hidden
// files and folders, system files (desktop.ini, Thumbs.db, .DS_Store, …),
// Office lock files (~$…) and special files (pipes, sockets, devices) are
// left out and reported in skipped. Links are followed; a link that leads in a
// circle is a problem. A file reached twice (named twice, or through a link)
// is listed once. Paths that cannot be used at all are reported in problems.
func Expand(paths []string) (files []string, skipped []Skipped, problems []*Problem) {
	w := walker{
		files:    map[fileKey]bool{},
		folders:  map[string]bool{},
		visiting: map[string]bool{},
	}
	for _, p := range paths {
		w.top(p)
	}
	return w.out, w.skipped, w.problems
}

type walker struct {
	files    map[fileKey]bool // files already listed
	folders  map[string]bool  // folders already walked, by real path
	visiting map[string]bool  // folders on the way down to the current one
	out      []string
	skipped  []Skipped
	problems []*Problem
}

func (w *walker) top(path string) {
	if path == "" {
		return
	}
	fi, err := os.Stat(path)
	if err != nil {
		w.problems = append(w.problems, problemFor(path, err))
		return
	}
	switch {
	case fi.IsDir():
		w.folder(path)
	case fi.Mode().IsRegular():
		w.file(path, fi)
	default:
		w.problems = append(w.problems, notRegularProblem(path, fi.Mode()))
	}
}

func (w *walker) folder(path string) {
	real := realPath(path)
	if w.visiting[real] {
		w.problems = append(w.problems, loopProblem(path, nil))
		return
	}
	if w.folders[real] {
		w.skip(path, "folder already included")
		return
	}
	w.folders[real] = true
	w.visiting[real] = true
	defer delete(w.visiting, real)

	// ReadDir sorts by name; on error it still returns what it could read.
	entries, err := os.ReadDir(path)
	if err != nil {
		w.problems = append(w.problems, folderProblemFor(path, err))
	}
	for _, e := range entries {
		w.entry(filepath.Join(path, e.Name()), e)
	}
}

func (w *walker) entry(path string, e fs.DirEntry) {
	name := e.Name()
	if why := skipByName(name, e.IsDir()); why != "" {
		w.skip(path, why)
		return
	}
	var (
		fi  fs.FileInfo
		err error
	)
	if e.Type()&fs.ModeSymlink != 0 {
		fi, err = os.Stat(path)
	} else {
		fi, err = e.Info()
	}
	if err != nil {
		w.problems = append(w.problems, problemFor(path, err))
		return
	}
	if hiddenAttr(fi) {
		w.skip(path, hiddenWhy(fi.IsDir()))
		return
	}
	switch {
	case fi.IsDir():
		w.folder(path)
	case fi.Mode().IsRegular():
		w.file(path, fi)
	default:
		w.skipped = append(w.skipped, Skipped{Path: path, Why: specialKind(fi.Mode()),
			Fact: fact.Fact{Code: fact.SkippedSpecial, File: filepath.Base(path), Args: map[string]string{"kind": specialFact(fi.Mode())}}})
	}
}

func (w *walker) file(path string, fi fs.FileInfo) {
	key := keyOf(path, fi)
	if w.files[key] {
		w.skip(path, "already included")
		return
	}
	// Opening now finds unreadable files before they are queued.
	f, err := os.Open(path)
	if err != nil {
		w.problems = append(w.problems, problemFor(path, err))
		return
	}
	f.Close()
	w.files[key] = true
	w.out = append(w.out, path)
}

// skipCodes are the facts of the reasons a file inside a folder is left out.
var skipCodes = map[string]fact.Code{
	"folder already included": fact.SkippedFolderIncluded,
	"already included":        fact.SkippedIncluded,
	"system file":             fact.SkippedSystemFile,
	"system folder":           fact.SkippedSystemFolder,
	"temporary Office file":   fact.SkippedOfficeTemp,
	"hidden folder":           fact.SkippedHiddenFolder,
	"hidden file":             fact.SkippedHiddenFile,
}

// skip leaves path out, for why.
func (w *walker) skip(path, why string) {
	w.skipped = append(w.skipped, Skipped{Path: path, Why: why, Fact: fact.Fact{Code: skipCodes[why], File: filepath.Base(path)}})
}

// systemNames are files and folders the operating system keeps for itself.
var systemNames = map[string]string{
	"desktop.ini":               "system file",
	"thumbs.db":                 "system file",
	"ehthumbs.db":               "system file",
	"ehthumbs_vista.db":         "system file",
	".ds_store":                 "system file",
	".localized":                "system file",
	"icon\r":                    "system file",
	"$recycle.bin":              "system folder",
	"system volume information": "system folder",
	"__macosx":                  "system folder",
}

// skipByName says why a file or folder inside a folder is left out, or "".
func skipByName(name string, dir bool) string {
	if why, ok := systemNames[strings.ToLower(name)]; ok {
		return why
	}
	if strings.HasPrefix(name, "~$") {
		return "temporary Office file"
	}
	if strings.HasPrefix(name, ".") {
		return hiddenWhy(dir)
	}
	return ""
}

func hiddenWhy(dir bool) string {
	if dir {
		return "hidden folder"
	}
	return "hidden file"
}

// realPath is the folder's path with links resolved, to recognise it however it is reached.
func realPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return absClean(r)
	}
	return absClean(path)
}

func absClean(path string) string {
	if a, err := filepath.Abs(path); err == nil {
		return a
	}
	return filepath.Clean(path)
}
