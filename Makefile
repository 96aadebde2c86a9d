# Hoist — build, run and test. `make run` opens the window; `make test` runs every test.
SHELL := /bin/bash
GO    ?= go
BIN   := build/hoist

# System packages Fyne, the real-window test and the keychain test need (Debian),
# then the Windows build, its installers (NSIS, and wixl for the MSI package),
# signing and its Wine test, and the Debian package and its checks; Unicode's bidi
# conformance files, Outlook's referee (msgconvert) and GNOME's proxy settings.
APT_PACKAGES := gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev \
	libxinerama-dev libxi-dev libxxf86vm-dev xvfb xauth x11-utils imagemagick fonts-dejavu-core \
	gnome-keyring dbus dbus-x11 libsecret-tools time curl \
	gcc-mingw-w64-x86-64 wine wine64 nsis zip msitools wixl osslsigncode openssl unzip \
	desktop-file-utils appstream lintian man-db xdg-utils libglib2.0-bin \
	unicode-data libemail-outlook-message-perl libemail-address-perl \
	dconf-gsettings-backend gsettings-desktop-schemas \
	python3 \
	winbind \
	iproute2

# make package GOOGLE_CLIENT_SECRET=FILE builds an organisation's OAuth client
# into every release file; SIGN_CERT=FILE SIGN_KEY=FILE (and SIGN_PASS,
# SIGN_TIMESTAMP) sign the Windows programs and installers.
export GOOGLE_CLIENT_SECRET SIGN_CERT SIGN_KEY SIGN_PASS SIGN_TIMESTAMP

.PHONY: all deps build run test test-go test-bench-module test-window test-darwin test-deb \
	test-windows test-client bench package package-linux package-deb package-windows screenshots clean

all: build

# Installs only what is missing; apt-get update runs only when something is.
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing system packages:$$missing"; \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y --no-install-recommends $$missing; \
	fi

build: deps
	$(GO) build -buildmode=pie -trimpath -o $(BIN) .

run: build
	@if [ -z "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		echo "No display found: starting the window on a virtual display (Xvfb :99)."; \
		(Xvfb :99 -screen 0 1280x800x24 >/dev/null 2>&1 &) ; sleep 1; \
		DISPLAY=:99 ./$(BIN) $(ARGS); \
	else ./$(BIN) $(ARGS); fi

# Every test: unit and protocol tests with -race (keychain tests against a real
# Secret Service on a private D-Bus, its files in a private folder), Google's client
# against the emulator, the real-window smoke test under Xvfb, macOS builds, the
# .deb, the Windows build under Wine, and a release built with an organisation's
# client. The parts run in three lanes side by side (each lane's parts one after
# another), and each part's time is printed at the end. The first lane, whose
# tests measure time, keeps the processors' priority; the packaging lanes
# take what it leaves (scripts/test-suite.sh).
TEST_LANES := "test-go test-window test-bench-module" \
	"test-deb test-client test-darwin" \
	"test-windows"
test: deps
	@scripts/test-suite.sh $(TEST_LANES)

# The keychain tests get a keyring of their own (scripts/with-keyring.sh); the
# run ends by listing every skipped test and fails on one not expected
# (scripts/expected-skips.txt).
test-go:
	set -o pipefail; scripts/with-keyring.sh $(GO) test -race -json -timeout 25m ./... | \
		$(GO) run ./internal/testreport -expect scripts/expected-skips.txt

test-bench-module:
	set -o pipefail; cd bench && $(GO) test -race -json -timeout 10m ./... | \
		$(GO) -C $(CURDIR) run ./internal/testreport -expect $(CURDIR)/scripts/expected-skips.txt

# The real window under Xvfb: in English and Persian, light and dark, on a small
# laptop's screen, and at 200 % on the screens people run it on. The README's
# pictures of the window are the first four runs' (make screenshots).
SMOKE_README := \
	"SMOKE_NAME=smoke-en-light SMOKE_THEME=light" \
	"SMOKE_NAME=smoke-en-dark SMOKE_THEME=dark" \
	"SMOKE_NAME=smoke-fa-light SMOKE_THEME=light SMOKE_LANG=fa_IR.UTF-8" \
	"SMOKE_NAME=smoke-fa-dark SMOKE_THEME=dark SMOKE_LANG=fa_IR.UTF-8"
SMOKE_MORE := \
	"SMOKE_NAME=smoke-1024x600 SMOKE_SCREEN=1024x600" \
	"SMOKE_NAME=smoke-200-1366x768 SMOKE_SCREEN=1366x768 SMOKE_SCALE=2" \
	"SMOKE_NAME=smoke-200-fa-1920x1080 SMOKE_SCREEN=1920x1080 SMOKE_SCALE=2 SMOKE_LANG=fa_IR.UTF-8" \
	"SMOKE_NAME=smoke-200-fa-1366x768 SMOKE_SCREEN=1366x768 SMOKE_SCALE=2 SMOKE_LANG=fa_IR.UTF-8"

test-window: build
	@for run in $(SMOKE_README) $(SMOKE_MORE); do echo "== $$run"; env $$run scripts/xvfb-smoke.sh $(BIN) || exit 1; done

screenshots: build
	@for run in $(SMOKE_README); do env $$run SMOKE_SHOTS=docs scripts/xvfb-smoke.sh $(BIN) || exit 1; done

# macOS stays buildable: what builds without cgo (all but the window) is
# built and vetted for both Mac processors.
DARWIN_PKGS := ./dirs/... ./engine/... ./auth/... ./cli/... ./ui/handover/...
test-darwin:
	for arch in arm64 amd64; do \
		GOOS=darwin GOARCH=$$arch CGO_ENABLED=0 $(GO) build $(DARWIN_PKGS) && \
		GOOS=darwin GOARCH=$$arch CGO_ENABLED=0 $(GO) vet $(DARWIN_PKGS) || exit 1; \
	done

# The .deb installs into a throw-away root, runs, validates and removes cleanly.
test-deb: package-deb
	scripts/deb-test.sh

# The Windows files (the MSI package's tables, signing), then the Windows
# build under Wine: both installers, updates while Hoist runs, removal,
# command line, keychain, window (screenshot build/wine-window.png), hand-over;
# what Outlook and Explorer drag onto the window (ui/oledrop); and the office
# proxy as Internet Options and Group Policy set it.
test-windows: package-windows
	scripts/windows-files-test.sh
	scripts/wine-test.sh
	scripts/wine-drop-test.sh
	scripts/wine-proxy-test.sh

# make package GOOGLE_CLIENT_SECRET=FILE puts the client in every release file.
test-client: deps
	scripts/client-secret-test.sh

bench: deps
	cd bench && $(GO) run ./cmd/hoistbench

# Every release file: the Linux tarball, the .deb, the Windows zip, installer
# and MSI package.
package: package-linux package-deb package-windows

package-linux: deps
	scripts/package.sh

package-deb: deps
	scripts/package-deb.sh

package-windows: deps
	scripts/package-windows.sh

clean:
	rm -rf build
