package destination

import (
	"errors"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/auth"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// offerPlaces says why the keychain cannot keep a sign-in — there is none
// on this computer, or it stayed locked — and offers what can: keeping the
// sign-in until Hoist quits (in memory only, never on disk), a file only
// the user can read (without a keychain), or trying again (a locked one).
// Closing the question (Escape) or Cancel signs nobody in.
func (b *DestBar) offerPlaces(why error, account string, scopes []string, adopt bool, then func(auth.Account)) {
	locked := errors.Is(why, auth.ErrKeychainLocked)
	title, text := view.Say("ui.keychain.title"), view.Say("ui.keychain.question")
	if locked {
		title, text = view.Say("ui.keychain.lockedTitle"), view.Say("ui.keychain.lockedQuestion")
	}
	dlg := dialog.NewCustomWithoutButtons(title, widgets.SentenceBox(text), b.Host.Window())
	var choice func()
	choose := func(f func()) func() {
		return func() {
			choice = f
			dlg.Hide()
		}
	}
	again := func(opts ...auth.LoginOption) func() {
		return func() { b.LoginWith(account, scopes, adopt, then, opts...) }
	}
	session := widgets.NewIconButton(view.Visual(view.Say("ui.keychain.session")), theme.ConfirmIcon(),
		choose(again(auth.KeepingForThisSession())))
	session.Importance = widget.HighImportance
	other := widgets.NewIconButton(view.Visual(view.Say("ui.keychain.file")), theme.DocumentSaveIcon(),
		choose(again(auth.AllowingFileStore())))
	if locked {
		// After unlocking, the keychain is asked again as the first time.
		other = widgets.NewIconButton(view.Visual(view.Say("ui.keychain.again")), theme.ViewRefreshIcon(),
			choose(func() { b.LoginWith(account, scopes, adopt, then) }))
	}
	cancel := widgets.NewButton(lang.L("Cancel"), dlg.Hide)
	buttons := []fyne.CanvasObject{cancel, other, session}
	if view.Rtl() {
		slices.Reverse(buttons)
	}
	dlg.SetButtons(buttons)
	dlg.SetOnClosed(func() {
		if choice != nil {
			choice()
		}
	})
	b.Host.Open(dlg)
}
