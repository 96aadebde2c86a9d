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
		// Google Cloud Storage: its name, its storage classes as Google names
		// them and as the API takes them, the scope of the projects' list, a
		// bucket's gs:// address and the examples of what is typed.
		"Storage", "Standard", "Nearline", "Coldline", "Archive", "STANDARD", "NEARLINE", "COLDLINE", "ARCHIVE",
		"cloud-platform.read-only", "gs", "northwind-banners", "northwind-web", "banners/2026",
	} {
		latinAllowed[w] = true
	}
}
