package ui

import "hoist/ui/handover"

// answerQuitRequests lets an installer about to replace Hoist, or an
// administrator's "hoist quit", ask the window through the hand-over channel
// to pause every upload and quit. Nobody may be at the computer to answer the
// question closing the window asks, so none is asked; the list keeps every
// upload, paused where the server stands, for the next start.
func (e *exit) answerQuitRequests(c *handover.Claim) {
	c.OnQuit(func() { e.frame.Later(e.quitOnRequest) })
}

// quitOnRequest quits as "Pause uploads and quit" does, whatever is open.
func (e *exit) quitOnRequest() {
	if e.quitting {
		return
	}
	e.frame.Log.Info("asked to pause every upload and quit")
	e.quit()
}
