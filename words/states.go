package words

// The words of a job's state and of the actions on it, the same in the
// window's rows and buttons and on the command line: one vocabulary. States
// and actions are named as the engine names them ("waiting", "resume"); how
// a state is shown (a bar, a warning, trouble) is the engine's State's to
// say, and the window and the command line choose only colour and layout.

import "strings"

var stateKeys = map[string]string{
	"waiting": "state.waiting", "checking": "state.checking", "uploading": "state.uploading",
	"retrying": "state.retrying", "paused": "state.paused", "attention": "state.attention",
	"done": "state.done", "failed": "state.failed", "refused": "state.refused", "canceled": "state.canceled",
}

var actionKeys = map[string]string{
	"pause": "action.pause", "resume": "action.resume", "cancel": "action.cancel",
	"retry": "action.retry", "remove": "action.remove", "restart": "action.restart",
	"sign-in": "action.signIn",
}

// State is a job's state in a word or two: "Uploading", "در حال بارگذاری".
// A state this version does not know is shown as the engine names it.
func (l *Lang) State(state string) string {
	if k, ok := stateKeys[state]; ok {
		return l.Say(k, nil)
	}
	return state
}

// StateWith is a state and why, "Failed: the connection dropped."; the
// state alone when there is nothing to say.
func (l *Lang) StateWith(state, why string) string { return l.stateAnd("state.with", state, why) }

// StateThen is a state and the sentence that follows it, "Uploading. The
// server no longer had the earlier part…".
func (l *Lang) StateThen(state, next string) string { return l.stateAnd("state.then", state, next) }

// StateAnd is a state and what qualifies it, "Done, checksum matched".
func (l *Lang) StateAnd(state, more string) string { return l.stateAnd("state.and", state, more) }

// StateCheckingWith is a resuming job that asks who holds its upload
// where it stands: "Resuming — checking with Google".
func (l *Lang) StateCheckingWith(state, who string) string {
	return l.Say("state.checkingWith", Args{"State": l.State(state), "Who": who})
}

// StateUntil is a state that lasts until a time: "Waiting until 10:40".
func (l *Lang) StateUntil(state, at string) string {
	return l.Say("state.until", Args{"State": l.State(state), "At": at})
}

func (l *Lang) stateAnd(key, state, more string) string {
	if strings.TrimSpace(more) == "" {
		return l.State(state)
	}
	return l.Say(key, Args{"State": l.State(state), "Why": more})
}

// Action is the label of a button or command on a job: "Resume", "ازسرگیری".
// The next steps facts suggest ("Press Resume…") use the same words.
func (l *Lang) Action(action string) string {
	if k, ok := actionKeys[action]; ok {
		return l.Say(k, nil)
	}
	return action
}
