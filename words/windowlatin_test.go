package words

// The window's Persian sentences also name keys on the keyboard, values
// Google's APIs take as they are (asset types, label ids, methods),
// products and the labels of Google Cloud Console's buttons.
func init() {
	for _, w := range []string{
		"Ctrl", "Shift", "Delete", "A", "O", "SHA-256", "PDF", "ZIP", "HTML", "HTML5",
		"HTML_IMAGE", "VIDEO", "AUDIO", "HTTP", "POST", "PUT", "PATCH", "files.update", "GiB",
		"contentType", "mimeType", "googleapis.com", "receivedTime", "dateHeader", "Vault",
		"INBOX", "UNREAD", "IMPORTANT", "Label_12", "gmail.labels", "me", "Services", "Publishing",
		"docs/administrators.md", "Data", "Gmail", "v3", "Internal", "Workspace", "Create",
		"Download", "client", "client_secret_",
	} {
		latinAllowed[w] = true
	}
}
