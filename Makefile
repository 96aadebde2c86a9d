# Hoist — build, run and test. `make run` opens the window; `make test` runs every test.
SHELL := /bin/bash
GO    ?= go
BIN   := build/hoist

# System packages Fyne, the real-window test and the keychain test need (Debian).
APT_PACKAGES := gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev \
	libxinerama-dev libxi-dev libxxf86vm-dev xvfb xauth imagemagick fonts-dejavu-core \
	gnome-keyring dbus dbus-x11 libsecret-tools time curl

.PHONY: all deps build run test test-go test-bench-module test-window bench package clean

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
	$(GO) build -o $(BIN) .

run: build
	@if [ -z "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		echo "No display found: starting the window on a virtual display (Xvfb :99)."; \
		(Xvfb :99 -screen 0 1280x800x24 >/dev/null 2>&1 &) ; sleep 1; \
		DISPLAY=:99 ./$(BIN) $(ARGS); \
	else ./$(BIN) $(ARGS); fi

# Every test: unit and protocol tests with -race (keychain tests against a real
# Secret Service on a private D-Bus), Google's client against the emulator, and the
# real-window smoke test under Xvfb.
test: deps test-go test-bench-module test-window

test-go:
	dbus-run-session -- sh -c 'echo -n hoist-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null; \
		$(GO) test -race -timeout 25m ./...'

test-bench-module:
	cd bench && $(GO) test -race -timeout 10m ./...

test-window: build
	scripts/xvfb-smoke.sh $(BIN)
	SMOKE_SCREEN=1024x600 SMOKE_NAME=smoke-1024x600 scripts/xvfb-smoke.sh $(BIN)

bench: deps
	cd bench && $(GO) run ./cmd/hoistbench

package: deps
	scripts/package.sh

clean:
	rm -rf build
