module hoist

go 1.26.8

require (
	fyne.io/fyne/v2 v2.7.1 // indirect
	github.com/danieljoos/wincred v1.2.3 // indirect
	github.com/gabriel-vasile/mimetype v1.4.16 // indirect
	github.com/godbus/dbus/v5 v5.2.2 // indirect
	github.com/zalando/go-keyring v0.2.8 // indirect
	go.etcd.io/bbolt v1.5.0 // indirect
	golang.org/x/oauth2 v0.37.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.45.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
