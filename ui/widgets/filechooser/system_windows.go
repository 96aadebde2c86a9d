//go:build windows

package filechooser

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"unsafe"
)

// openFileName is the OPENFILENAMEW structure of the Windows API.
type openFileName struct {
	structSize    uint32
	owner         uintptr
	instance      uintptr
	filter        *uint16
	customFilter  *uint16
	maxCustFilter uint32
	filterIndex   uint32
	file          *uint16
	maxFile       uint32
	fileTitle     *uint16
	maxFileTitle  uint32
	initialDir    *uint16
	title         *uint16
	flags         uint32
	fileOffset    uint16
	fileExtension uint16
	defExt        *uint16
	custData      uintptr
	hook          uintptr
	templateName  *uint16
	reserved      uintptr
	reserved2     uint32
	flagsEx       uint32
}

const (
	ofnAllowMultiSelect = 0x00000200
	ofnExplorer         = 0x00080000
	ofnFileMustExist    = 0x00001000
	ofnPathMustExist    = 0x00000800
	ofnNoChangeDir      = 0x00000008
	ofnOverwritePrompt  = 0x00000002
)

var (
	comdlg32        = syscall.NewLazyDLL("comdlg32.dll")
	getOpenFileName = comdlg32.NewProc("GetOpenFileNameW")
	getSaveFileName = comdlg32.NewProc("GetSaveFileNameW")
	commDlgError    = comdlg32.NewProc("CommDlgExtendedError")
)

// OpenWindows shows the system's open dialog, several files at once. It
// returns none when the user canceled. Folders are not offered by this
// dialog: ErrNoPortal sends the caller to its own folder dialog.
// With o.Save it shows the save dialog, which asks before writing over a
// file.
func OpenWindows(_ context.Context, o Options) ([]string, error) {
	proc := getOpenFileName
	if o.Save {
		proc = getSaveFileName
	}
	if o.Directory {
		return nil, ErrNoPortal
	}
	if err := proc.Find(); err != nil {
		return nil, ErrNoPortal
	}
	buf := make([]uint16, 64<<10) // room for many names
	ofn := openFileName{
		file:    &buf[0],
		maxFile: uint32(len(buf)),
		flags:   ofnExplorer | ofnFileMustExist | ofnPathMustExist | ofnNoChangeDir,
	}
	ofn.structSize = uint32(unsafe.Sizeof(ofn))
	if o.Multiple && !o.Save {
		ofn.flags |= ofnAllowMultiSelect
	}
	if o.Save {
		ofn.flags = ofnExplorer | ofnPathMustExist | ofnNoChangeDir | ofnOverwritePrompt
		copy(buf[:len(buf)-1], syscall.StringToUTF16(o.Name))
	}
	if len(o.Filters) > 0 {
		ofn.filter = &filterText(o.Filters)[0]
	}
	if o.Title != "" {
		ofn.title, _ = syscall.UTF16PtrFromString(o.Title)
	}
	if o.Folder != "" {
		ofn.initialDir, _ = syscall.UTF16PtrFromString(o.Folder)
	}
	ok, _, _ := proc.Call(uintptr(unsafe.Pointer(&ofn)))
	if ok == 0 {
		if code, _, _ := commDlgError.Call(); code != 0 {
			return nil, errors.New("the system's open dialog failed")
		}
		return nil, nil // canceled
	}
	return splitNames(buf), nil
}

// filterText is the dialog's lpstrFilter: each filter's words, then its
// patterns joined by ";", each ended by a zero, the whole by two.
func filterText(filters []Filter) []uint16 {
	var out []uint16
	for _, f := range filters {
		out = append(out, syscall.StringToUTF16(f.Name)...)
		out = append(out, syscall.StringToUTF16(strings.Join(f.Patterns, ";"))...)
	}
	return append(out, 0)
}

// splitNames reads the dialog's answer: one full path, or a folder followed
// by the names chosen in it, each ended by a zero, the whole by two.
func splitNames(buf []uint16) []string {
	var parts []string
	start := 0
	for i, c := range buf {
		if c != 0 {
			continue
		}
		if i == start {
			break
		}
		parts = append(parts, syscall.UTF16ToString(buf[start:i]))
		start = i + 1
	}
	if len(parts) <= 1 {
		return parts
	}
	paths := make([]string, 0, len(parts)-1)
	for _, name := range parts[1:] {
		paths = append(paths, filepath.Join(parts[0], name))
	}
	return paths
}
