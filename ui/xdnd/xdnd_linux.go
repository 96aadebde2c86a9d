//go:build linux && !wayland

// Package xdnd answers the program files were dragged from whether the
// window took them, where the toolkit's own answer is wrong (X11).
package xdnd

/*
#cgo LDFLAGS: -lX11
#include <X11/Xlib.h>
#include <string.h>

#include <X11/Xproto.h>

static XErrorHandler before;

// quietAboutGoneSources ignores the error of a message sent to a window
// that is gone: after Hoist's answer, the program the files came from may
// close its drag window before the toolkit sends its own answer there, and
// Xlib's default handler would end Hoist for it. Every other error goes to
// the handler that was there before.
static int quietAboutGoneSources(Display *d, XErrorEvent *e) {
	if (e->error_code == BadWindow && e->request_code == X_SendEvent) return 0;
	return before ? before(d, e) : 0;
}

static void quietOnce(void) {
	static int done;
	if (!done) {
		done = 1;
		before = XSetErrorHandler(quietAboutGoneSources);
	}
}

// finishDrop tells the owner of the drag (the file manager) that target
// took the drop, or not: XDND's XdndFinished, on a connection of its own.
static void finishDrop(unsigned long target, int accepted) {
	quietOnce();
	Display *d = XOpenDisplay(NULL);
	if (!d) return;
	Window source = XGetSelectionOwner(d, XInternAtom(d, "XdndSelection", False));
	if (source != None) {
		XEvent e;
		memset(&e, 0, sizeof e);
		e.xclient.type = ClientMessage;
		e.xclient.display = d;
		e.xclient.window = source;
		e.xclient.message_type = XInternAtom(d, "XdndFinished", False);
		e.xclient.format = 32;
		e.xclient.data.l[0] = (long)target;
		e.xclient.data.l[1] = accepted ? 1 : 0;
		e.xclient.data.l[2] = accepted ? (long)XInternAtom(d, "XdndActionCopy", False) : None;
		XSendEvent(d, source, False, NoEventMask, &e);
		XSync(d, False);
	}
	XCloseDisplay(d);
}
*/
import "C"

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
)

// Answer tells the program the files were dragged from (on X11)
// whether Hoist took them, before the toolkit answers on its own: GLFW,
// which the toolkit draws with, answers XDND's XdndFinished with the
// number of bytes it read as the "accepted" flag, so a drop whose list of
// files has an even length is answered "not accepted" though its files
// were added. Sent first, this answer is the one the file manager heeds.
// Call it from the window's drop handler, on the main goroutine.
func Answer(w fyne.Window, accepted bool) {
	nw, ok := w.(driver.NativeWindow)
	if !ok {
		return
	}
	nw.RunNative(func(ctx any) {
		if x, ok := ctx.(driver.X11WindowContext); ok && x.WindowHandle != 0 {
			on := C.int(0)
			if accepted {
				on = 1
			}
			C.finishDrop(C.ulong(x.WindowHandle), on)
		}
	})
}
