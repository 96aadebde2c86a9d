package words

// The words of a job's state and of the actions on it, the same in the
// window's rows and buttons and on the command line. States and actions are
// named as the engine names them ("waiting", "resume").

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

// Action is the label of a button or command on a job: "Resume", "ازسرگیری".
// The next steps facts suggest ("Press Resume…") use the same words.
func (l *Lang) Action(action string) string {
	if k, ok := actionKeys[action]; ok {
		return l.Say(k, nil)
	}
	return action
}
