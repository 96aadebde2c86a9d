//go:build windows && (amd64 || arm64)

package outlookdrag

import (
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"

	"hoist/internal/ole"
)

// dropSource is the dragging program's IDropSource: the button is let go
// once the pointer has been over the window for a few of OLE's turns.
type dropSource struct {
	vtbl  *dropSourceVtbl
	turns atomic.Int32
}

type dropSourceVtbl struct {
	ole.UnknownVtbl
	QueryContinueDrag, GiveFeedback uintptr
}

var theDropSourceVtbl = dropSourceVtbl{
	UnknownVtbl: ole.UnknownVtbl{
		QueryInterface: syscall.NewCallback(func(s *dropSource, iid *windows.GUID, out **dropSource) uintptr {
			if *iid != ole.IIDIUnknown && *iid != iidIDropSource {
				*out = nil
				return ole.ENoInterface
			}
			*out = s
			return ole.SOK
		}),
		AddRef:  syscall.NewCallback(func(*dropSource) uintptr { return 2 }),
		Release: syscall.NewCallback(func(*dropSource) uintptr { return 1 }),
	},
	QueryContinueDrag: syscall.NewCallback(func(s *dropSource, esc, keys uintptr) uintptr {
		if s.turns.Add(1) < 3 {
			return ole.SOK
		}
		return dragdropSDrop
	}),
	GiveFeedback: syscall.NewCallback(func(*dropSource, uintptr) uintptr { return dragdropSDefault }),
}

// Start starts OLE on the calling thread, which must stay the same (see
// runtime.LockOSThread) for Drag.
func Start() error {
	if hr, _, _ := procOleInitialize.Call(0); hr != ole.SOK && hr != ole.SFalse {
		return hresult(hr)
	}
	return nil
}

// Drag drags d from the point x, y of the screen and lets it go there, with
// OLE's own drag and drop (DoDragDrop), as Outlook does, allowing a copy or a
// move. It returns the effect the window under the point answered, and
// whether the drag ended in a drop.
func (d *Data) Drag(x, y int32) (effect uint32, dropped bool) {
	procSetCursorPos.Call(uintptr(x), uintptr(y))
	source := &dropSource{vtbl: &theDropSourceVtbl}
	hr, _, _ := procDoDragDrop.Call(uintptr(unsafe.Pointer(d)), uintptr(unsafe.Pointer(source)),
		EffectCopy|EffectMove, uintptr(unsafe.Pointer(&effect)))
	return effect, hr == dragdropSDrop
}
