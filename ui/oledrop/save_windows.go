//go:build windows && (amd64 || arm64)

package oledrop

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"

	"hoist/internal/ole"
)

// offer is what a data object offers that Hoist takes.
type offer int

const (
	nothing      offer = iota
	files              // CF_HDROP: paths of files on this computer
	virtualFiles       // FileGroupDescriptorW with FileContents
)

// formats are the numbers of the named formats, known once asked.
var formats = sync.OnceValues(ole.Formats)

// offered says which of the forms Hoist takes obj offers; files first,
// since a program offering both has the files on disk already.
func offered(obj *iDataObject) offer {
	if obj == nil {
		return nothing
	}
	if obj.queryGetData(&ole.FormatEtc{Format: ole.CFHDrop, Aspect: dvaspectContent, Index: -1, Tymed: ole.TymedHGlobal}) {
		return files
	}
	descriptor, _ := formats()
	if obj.queryGetData(&ole.FormatEtc{Format: descriptor, Aspect: dvaspectContent, Index: -1, Tymed: ole.TymedHGlobal}) {
		return virtualFiles
	}
	return nothing
}

// read takes what obj holds: the paths of its files, else its virtual files
// saved in a new folder under t.folder.
func (t *Target) read(obj *iDataObject) Drop {
	switch offered(obj) {
	case files:
		return Drop{Paths: droppedFiles(obj)}
	case virtualFiles:
		return t.saveVirtual(obj)
	}
	return Drop{}
}

// droppedFiles reads CF_HDROP's list of paths.
func droppedFiles(obj *iDataObject) []string {
	var m ole.StgMedium
	if obj.getData(&ole.FormatEtc{Format: ole.CFHDrop, Aspect: dvaspectContent, Index: -1, Tymed: ole.TymedHGlobal}, &m) != ole.SOK {
		return nil
	}
	defer procReleaseStgMedium.Call(uintptr(unsafe.Pointer(&m)))
	if m.Tymed != ole.TymedHGlobal {
		return nil
	}
	n, _, _ := procDragQueryFileW.Call(uintptr(m.Data), 0xFFFFFFFF, 0, 0)
	paths := make([]string, 0, n)
	for i := range n {
		size, _, _ := procDragQueryFileW.Call(uintptr(m.Data), i, 0, 0)
		buf := make([]uint16, size+1)
		procDragQueryFileW.Call(uintptr(m.Data), i, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
		if p := windows.UTF16ToString(buf); p != "" {
			paths = append(paths, p)
		}
	}
	return paths
}

// item is one virtual file a program offers.
type item struct {
	name      string
	size      int64 // -1 when the program did not say
	directory bool
}

// descriptors reads FileGroupDescriptorW: the names (and sizes) of the
// virtual files, in the order FileContents numbers them.
func descriptors(obj *iDataObject) ([]item, error) {
	descriptor, _ := formats()
	var m ole.StgMedium
	if hr := obj.getData(&ole.FormatEtc{Format: descriptor, Aspect: dvaspectContent, Index: -1, Tymed: ole.TymedHGlobal}, &m); hr != ole.SOK {
		return nil, hresultError{"FileGroupDescriptorW", hr}
	}
	defer procReleaseStgMedium.Call(uintptr(unsafe.Pointer(&m)))
	if m.Tymed != ole.TymedHGlobal {
		return nil, errors.New("FileGroupDescriptorW: not in memory")
	}
	mem, unlock, ok := globalMemory(m.Data)
	if !ok {
		return nil, errors.New("FileGroupDescriptorW: the memory cannot be read")
	}
	defer unlock()
	const one = int(unsafe.Sizeof(ole.FileDescriptor{}))
	if len(mem) < 4 {
		return nil, errors.New("FileGroupDescriptorW: too short")
	}
	count := int(*(*uint32)(unsafe.Pointer(&mem[0])))
	if count < 0 || count > (len(mem)-4)/one {
		return nil, fmt.Errorf("FileGroupDescriptorW: %d items do not fit in %d bytes", count, len(mem))
	}
	items := make([]item, count)
	for i := range items {
		fd := (*ole.FileDescriptor)(unsafe.Pointer(&mem[4+i*one]))
		items[i] = item{name: windows.UTF16ToString(fd.Name[:]), size: -1}
		if fd.Flags&ole.FDFileSize != 0 {
			items[i].size = int64(fd.SizeHigh)<<32 | int64(fd.SizeLow)
		}
		items[i].directory = fd.Flags&ole.FDAttributes != 0 && fd.Attributes&ole.FileAttributeDirectory != 0
	}
	return items, nil
}

// saveVirtual saves each virtual file obj offers in a new folder under
// t.folder. Folders among them are not files to upload: their contents are
// offered as items of their own.
func (t *Target) saveVirtual(obj *iDataObject) Drop {
	items, err := descriptors(obj)
	if err != nil {
		return Drop{Failed: []Failure{{Err: err}}}
	}
	var d Drop
	var dir string
	taken := names{}
	for i, it := range items {
		if it.directory {
			continue
		}
		if dir == "" {
			err := os.MkdirAll(t.folder, 0o700)
			if err == nil {
				dir, err = os.MkdirTemp(t.folder, FolderPrefix+"*")
			}
			if err != nil {
				for _, it := range items[i:] {
					if !it.directory {
						d.Failed = append(d.Failed, Failure{Name: it.name, Err: err})
					}
				}
				return d
			}
		}
		path := filepath.Join(dir, taken.take(it.name))
		if err := saveContents(obj, i, it, path); err != nil {
			d.Failed = append(d.Failed, Failure{Name: it.name, Err: err})
			continue
		}
		d.Paths = append(d.Paths, path)
	}
	if dir != "" && len(d.Paths) == 0 {
		os.Remove(dir)
	}
	return d
}

// saveContents asks for item index's FileContents, in any of the forms a
// program gives it (Outlook: a message as an IStorage, an attachment as an
// IStream or in memory), and saves it at path. A program that will not
// answer a question naming all three forms is asked for each.
func saveContents(obj *iDataObject, index int, it item, path string) error {
	_, contents := formats()
	var m ole.StgMedium
	f := ole.FormatEtc{Format: contents, Aspect: dvaspectContent, Index: int32(index), Tymed: ole.TymedIStorage | ole.TymedIStream | ole.TymedHGlobal}
	hr := obj.getData(&f, &m)
	for _, one := range []uint32{ole.TymedIStorage, ole.TymedIStream, ole.TymedHGlobal} {
		if hr == ole.SOK {
			break
		}
		f.Tymed = one
		hr = obj.getData(&f, &m)
	}
	if hr != ole.SOK {
		return hresultError{"FileContents", hr}
	}
	defer procReleaseStgMedium.Call(uintptr(unsafe.Pointer(&m)))
	// Written beside its place and moved there whole: a file half written
	// is never queued, nor left with its real name.
	tmp := path + ".part"
	var err error
	switch m.Tymed {
	case ole.TymedIStorage:
		err = saveStorage((*ole.Storage)(m.Data), tmp)
	case ole.TymedIStream:
		err = saveStream((*ole.Stream)(m.Data), tmp)
	case ole.TymedHGlobal:
		err = saveMemory(m.Data, it.size, tmp)
	default:
		err = fmt.Errorf("FileContents: a form Hoist does not read (%d)", m.Tymed)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// saveStorage copies a compound file (an Outlook message) into a new one at
// path: what Outlook's "Save As" writes as a .msg.
func saveStorage(src *ole.Storage, path string) error {
	name, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return err
	}
	var dst *ole.Storage
	hr, _, _ := procStgCreateDocfile.Call(uintptr(unsafe.Pointer(name)), ole.STGMCreate|ole.STGMReadWrite|ole.STGMShareExclusive, 0, uintptr(unsafe.Pointer(&dst)))
	if hr != ole.SOK {
		return hresultError{"StgCreateDocfile", hr}
	}
	defer dst.Release()
	if hr := src.CopyTo(dst); hr != ole.SOK {
		return hresultError{"IStorage::CopyTo", hr}
	}
	if hr := dst.Commit(); hr != ole.SOK {
		return hresultError{"IStorage::Commit", hr}
	}
	return nil
}

// saveStream writes a stream's bytes from its start.
func saveStream(s *ole.Stream, path string) error {
	s.Rewind()
	return writeFile(path, func(w io.Writer) error {
		buf := make([]byte, 256<<10)
		for {
			n, hr := s.Read(buf)
			if hr != ole.SOK && hr != ole.SFalse {
				return hresultError{"IStream::Read", hr}
			}
			if n == 0 {
				return nil
			}
			if _, err := w.Write(buf[:n]); err != nil {
				return err
			}
		}
	})
}

// saveMemory writes a block of memory: as many bytes as the program said the
// file has, since the block may be larger.
func saveMemory(h unsafe.Pointer, size int64, path string) error {
	mem, unlock, ok := globalMemory(h)
	if !ok {
		return errors.New("FileContents: the memory cannot be read")
	}
	defer unlock()
	if size >= 0 && size < int64(len(mem)) {
		mem = mem[:size]
	}
	return writeFile(path, func(w io.Writer) error {
		_, err := w.Write(mem)
		return err
	})
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}
