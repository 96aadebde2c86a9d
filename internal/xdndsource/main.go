//go:build linux

// Command xdndsource drags files onto a window of an X display as a file
// manager does (the XDND protocol: enter, position, drop, the list of files
// as text/uri-list, finished) and says how the window answered: "accepted"
// or "refused". For tests only: the real-window smoke test drops files on
// Hoist with it.
//
// Usage: xdndsource [-parity even|odd] [-wait SECONDS] TITLE FILE...
//
// The window is the first on screen whose title holds TITLE and that says it
// takes drops (XdndAware); the tool waits for one up to -wait seconds
// (default 30), and as long for each answer. Only the target's own answers
// count.
//
// -parity pads the list of files with a comment line so that its length in
// bytes is even or odd (a window may read the two differently).
package main

/*
#cgo LDFLAGS: -lX11
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

// A window may go while it is looked at (another program closes one): its
// error is not the drag's, and Xlib's default handler would end the tool.
static int ignoreGone(Display *d, XErrorEvent *e) {
	(void)d;
	(void)e;
	return 0;
}

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

// titled reports whether w's title (_NET_WM_NAME in UTF-8, else WM_NAME)
// holds name: a title may carry progress besides the program's name.
static int titled(Display *d, Window w, const char *name) {
	Atom type;
	int format;
	unsigned long n, after;
	unsigned char *data = NULL;
	int found = 0;
	if (XGetWindowProperty(d, w, XInternAtom(d, "_NET_WM_NAME", False), 0, 1024, False,
			XInternAtom(d, "UTF8_STRING", False), &type, &format, &n, &after, &data) == Success && data) {
		found = strstr((char *)data, name) != NULL;
		XFree(data);
		if (found) return 1;
	}
	char *wn = NULL;
	if (XFetchName(d, w, &wn) && wn) {
		found = strstr(wn, name) != NULL;
		XFree(wn);
	}
	return found;
}

// ready reports whether w is on screen and says it takes drops (XdndAware).
static int ready(Display *d, Window w) {
	XWindowAttributes a;
	if (!XGetWindowAttributes(d, w, &a) || a.map_state != IsViewable) return 0;
	Atom type;
	int format;
	unsigned long n, after;
	unsigned char *data = NULL;
	int aware = XGetWindowProperty(d, w, XInternAtom(d, "XdndAware", False), 0, 1, False, AnyPropertyType,
			&type, &format, &n, &after, &data) == Success && data && n > 0;
	if (data) XFree(data);
	return aware;
}

static Window findByName(Display *d, Window w, const char *name) {
	if (titled(d, w, name) && ready(d, w)) return w;
	Window root, parent, *kids = NULL;
	unsigned int n = 0;
	if (!XQueryTree(d, w, &root, &parent, &kids, &n)) return 0;
	Window found = 0;
	for (unsigned int i = 0; i < n && !found; i++) found = findByName(d, kids[i], name);
	if (kids) XFree(kids);
	return found;
}

static void send(Display *d, Window to, Atom type, long l0, long l1, long l2, long l3, long l4) {
	XEvent e;
	memset(&e, 0, sizeof e);
	e.xclient.type = ClientMessage;
	e.xclient.display = d;
	e.xclient.window = to;
	e.xclient.message_type = type;
	e.xclient.format = 32;
	e.xclient.data.l[0] = l0;
	e.xclient.data.l[1] = l1;
	e.xclient.data.l[2] = l2;
	e.xclient.data.l[3] = l3;
	e.xclient.data.l[4] = l4;
	XSendEvent(d, to, False, NoEventMask, &e);
	XFlush(d);
}

// next waits until the deadline for an event; 0 when none came.
static int next(Display *d, XEvent *e, double deadline) {
	while (now() < deadline) {
		if (XPending(d)) {
			XNextEvent(d, e);
			return 1;
		}
		usleep(10000);
	}
	return 0;
}

// fromTarget: a message of the given type sent by the drop's target (its
// first field names the window it is about).
static int fromTarget(XEvent *e, Atom type, Window target) {
	return e->type == ClientMessage && e->xclient.message_type == type && (Window)e->xclient.data.l[0] == target;
}

// drag drops list on the window titled title, waiting up to wait seconds
// for the window and for each answer: 1 accepted, 0 refused, negative when
// it could not be done (-1 no display, -2 no window, -3 no status, -4 no
// request for the files, -5 no answer).
static int drag(const char *title, const char *list, int len, double wait) {
	XSetErrorHandler(ignoreGone);
	Display *d = XOpenDisplay(NULL);
	if (!d) return -1;
	Window root = DefaultRootWindow(d);
	Window target = 0;
	// The window may still be on its way to the screen.
	for (double until = now() + wait; !(target = findByName(d, root, title)) && now() < until;) usleep(100000);
	if (!target) return -2;
	Window src = XCreateSimpleWindow(d, root, 0, 0, 1, 1, 0, 0, 0);
	Atom sel = XInternAtom(d, "XdndSelection", False);
	Atom enter = XInternAtom(d, "XdndEnter", False), position = XInternAtom(d, "XdndPosition", False);
	Atom status = XInternAtom(d, "XdndStatus", False), drop = XInternAtom(d, "XdndDrop", False);
	Atom finished = XInternAtom(d, "XdndFinished", False), copy = XInternAtom(d, "XdndActionCopy", False);
	Atom uris = XInternAtom(d, "text/uri-list", False);
	XSetSelectionOwner(d, sel, src, CurrentTime);

	int x = 0, y = 0;
	Window child;
	XWindowAttributes a;
	XGetWindowAttributes(d, target, &a);
	XTranslateCoordinates(d, target, root, a.width / 2, a.height / 2, &x, &y, &child);

	send(d, target, enter, (long)src, 5L << 24, (long)uris, 0, 0);
	send(d, target, position, (long)src, 0, ((long)x << 16) | y, CurrentTime, (long)copy);
	XEvent e;
	for (;;) {
		if (!next(d, &e, now() + wait)) return -3;
		if (fromTarget(&e, status, target)) break;
	}
	send(d, target, drop, (long)src, 0, CurrentTime, 0, 0);
	int served = 0;
	for (double until = now() + wait;;) {
		if (!next(d, &e, until)) return served ? -5 : -4;
		if (e.type == SelectionRequest) {
			XSelectionRequestEvent *r = &e.xselectionrequest;
			XEvent reply;
			memset(&reply, 0, sizeof reply);
			reply.xselection.type = SelectionNotify;
			reply.xselection.requestor = r->requestor;
			reply.xselection.selection = r->selection;
			reply.xselection.target = r->target;
			reply.xselection.time = r->time;
			reply.xselection.property = None;
			if (r->target == uris) {
				XChangeProperty(d, r->requestor, r->property, uris, 8, PropModeReplace, (const unsigned char *)list, len);
				reply.xselection.property = r->property;
				served = 1;
			}
			XSendEvent(d, r->requestor, False, NoEventMask, &reply);
			XFlush(d);
		} else if (served && fromTarget(&e, finished, target)) {
			int ok = e.xclient.data.l[1] & 1;
			XCloseDisplay(d);
			return ok;
		}
	}
}
*/
import "C"

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"unsafe"
)

func main() {
	parity := flag.String("parity", "", "pad the list to an even or odd length in bytes")
	wait := flag.Float64("wait", 30, "seconds to wait for the window, and for each of its answers")
	flag.Parse()
	if flag.NArg() < 2 {
		fmt.Fprintln(os.Stderr, "usage: xdndsource [-parity even|odd] [-wait SECONDS] TITLE FILE...")
		os.Exit(2)
	}
	list := ""
	for _, f := range flag.Args()[1:] {
		abs, err := filepath.Abs(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		list += (&url.URL{Scheme: "file", Path: abs}).String() + "\r\n"
	}
	switch {
	case *parity == "even" && len(list)%2 == 1, *parity == "odd" && len(list)%2 == 0:
		list = "#\r\n" + list
	}
	cl, ct := C.CString(list), C.CString(flag.Arg(0))
	defer C.free(unsafe.Pointer(cl))
	defer C.free(unsafe.Pointer(ct))
	switch r := C.drag(ct, cl, C.int(len(list)), C.double(*wait)); r {
	case 1:
		fmt.Println("accepted")
	case 0:
		fmt.Println("refused")
	default:
		fmt.Fprintf(os.Stderr, "xdndsource: the drag could not be done (%d)\n", int(r))
		os.Exit(1)
	}
}
