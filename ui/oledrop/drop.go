package oledrop

// Drop is what one drop brought: the paths of ordinary files, or the
// virtual files saved, each under the folder given to New; Failed holds the
// items that could not be saved, by the name the program gave them, each
// with why.
type Drop struct {
	Paths  []string
	Failed []Failure
}

// Failure is an item of a drop that could not be saved.
type Failure struct {
	Name string
	Err  error
}

// FolderPrefix starts the name of each drop's own folder under the folder
// given to New.
const FolderPrefix = "drop-"
