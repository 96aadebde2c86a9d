package media

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hoist/engine/fact"
)

// Expand turns what the user dropped or named into the list of files to upload.
//
// Files named directly pass through, even hidden ones: the user chose them.
// Folders become their regular files, recursively, in natural name order (doc_2 before doc_10); hidden
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
		w.skip(path, fact.SkippedFolderIncluded)
		return
	}
	w.folders[real] = true
	w.visiting[real] = true
	defer delete(w.visiting, real)

	// On error ReadDir still returns what it could read. Its files come
	// as people count them: doc_2 before doc_10.
	entries, err := os.ReadDir(path)
	if err != nil {
		w.problems = append(w.problems, folderProblemFor(path, err))
	}
	slices.SortStableFunc(entries, func(a, b fs.DirEntry) int { return CompareNames(a.Name(), b.Name()) })
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
		w.skipped = append(w.skipped, Skipped{Path: path,
			Fact: fact.Fact{Code: fact.SkippedSpecial, File: filepath.Base(path), Args: map[string]string{"kind": specialKind(fi.Mode())}}})
	}
}

func (w *walker) file(path string, fi fs.FileInfo) {
	key := keyOf(path, fi)
	if w.files[key] {
		w.skip(path, fact.SkippedIncluded)
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

// skip leaves path out, for why.
func (w *walker) skip(path string, why fact.Code) {
	w.skipped = append(w.skipped, Skipped{Path: path, Fact: fact.Fact{Code: why, File: filepath.Base(path)}})
}

// systemNames are files and folders the operating system keeps for itself.
var systemNames = map[string]fact.Code{
	"desktop.ini":               fact.SkippedSystemFile,
	"thumbs.db":                 fact.SkippedSystemFile,
	"ehthumbs.db":               fact.SkippedSystemFile,
	"ehthumbs_vista.db":         fact.SkippedSystemFile,
	".ds_store":                 fact.SkippedSystemFile,
	".localized":                fact.SkippedSystemFile,
	"icon\r":                    fact.SkippedSystemFile,
	"$recycle.bin":              fact.SkippedSystemFolder,
	"system volume information": fact.SkippedSystemFolder,
	"__macosx":                  fact.SkippedSystemFolder,
}

// skipByName says why a file or folder inside a folder is left out, or "".
func skipByName(name string, dir bool) fact.Code {
	if why, ok := systemNames[strings.ToLower(name)]; ok {
		return why
	}
	if strings.HasPrefix(name, "~$") {
		return fact.SkippedOfficeTemp
	}
	if strings.HasPrefix(name, ".") {
		return hiddenWhy(dir)
	}
	return ""
}

func hiddenWhy(dir bool) fact.Code {
	if dir {
		return fact.SkippedHiddenFolder
	}
	return fact.SkippedHiddenFile
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
