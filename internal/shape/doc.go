// Package shape holds only a test: the limits that keep Hoist's code
// readable by someone new to it, checked over the whole repository on every
// test run. No function longer than a screenful or two (100 lines), no type
// in the engine, the sign-in or the window with more methods than one can
// keep in mind (30; the queue, the engine's public face, 25), and a window
// package whose top level holds only the frame, the loop and the snapshot
// (15 files), its panels living in packages of their own.
//
// The emulator's Server is left out of the method count: it is one HTTP
// server answering every destination's endpoints, one method an endpoint.
package shape
