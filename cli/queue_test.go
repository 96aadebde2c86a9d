package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
)

// TestDamagedJournalSaidOnceInPlainWords: a damaged upload list is set aside
// and the command line says so in one plain sentence, once.
func TestDamagedJournalSaidOnceInPlainWords(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.db")
	if err := os.WriteFile(path, bytes.Repeat([]byte("not a database "), 400), 0o600); err != nil {
		t.Fatal(err)
	}
	queue := func() (code int, stdout, stderr string) {
		var out, errOut bytes.Buffer
		code = Queue(context.Background(), []string{"--journal", path}, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	code, stdout, stderr := queue()
	if code != exitOK {
		t.Fatalf("exit %d, want 0:\n%s%s", code, stdout, stderr)
	}
	backups, _ := filepath.Glob(path + ".bad-*")
	if len(backups) != 1 {
		t.Fatalf("backups %v, want one", backups)
	}
	want := "The list of uploads was damaged and could not be read, so Hoist started with an empty list. The damaged file is kept in " + backups[0] + ".\n"
	if stderr != want {
		t.Errorf("stderr:\n%q\nwant:\n%q", stderr, want)
	}
	if !strings.Contains(stdout, "No uploads.") {
		t.Errorf("stdout %q, want an empty list", stdout)
	}
	if _, _, stderr := queue(); stderr != "" {
		t.Errorf("said again on the next start: %q", stderr)
	}
}

// TestResumeRetriesFailedUploads: an upload that failed is unfinished to the
// user, so "hoist send --resume" tries it again, continuing the kept session
// from where the server stands; the command line names its own next steps,
// not the window's buttons.
func TestResumeRetriesFailedUploads(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	l.srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Skip: 2,
		Action: emulator.Answer{Status: http.StatusForbidden, Message: "The caller does not have permission", Reason: "forbidden"}})
	data := bytes.Repeat([]byte("quarterly figures "), 100_000)
	file := l.file("report.pdf", data)
	to := []string{"--to", l.url + dest.SandboxPath, "--no-auth", "--method", "resumable", "--chunk-size", "256KiB"}

	code, stdout, stderr := l.send(append(to, file)...)
	if code != exitFailed {
		t.Fatalf("exit %d, want 1:\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "Press") || !strings.Contains(stdout, `Ask for access to this destination for this account, then run "hoist send --resume"; or remove it with hoist queue remove `) {
		t.Errorf("the failure does not say how to try again from the command line:\n%s", stdout)
	}
	var out, errOut bytes.Buffer
	Queue(context.Background(), []string{"--journal", l.journal}, &out, &errOut)
	if !strings.Contains(out.String(), "Failed") {
		t.Fatalf("the list does not show the failed upload:\n%s%s", out.String(), errOut.String())
	}
	sentBefore := chunkBytes(t, l.srv)

	code, stdout, stderr = l.send(append(to, "--resume")...)
	if code != exitOK {
		t.Fatalf("resume: exit %d, want 0:\n%s%s", code, stdout, stderr)
	}
	objs := l.srv.Objects()
	if len(objs) != 1 || objs[0].SHA256 != fileSHA(t, file) {
		t.Fatalf("objects %+v, want one holding the file", objs)
	}
	if again := chunkBytes(t, l.srv) - sentBefore; again > int64(len(data))-2*256<<10 {
		t.Errorf("the resume sent %d bytes: it started over instead of continuing the session", again)
	}
}

// TestResumeSaysWhyItStartsAgain: a session gone when Hoist comes back means
// a new upload from byte 0, and the output says so in plain words.
func TestResumeSaysWhyItStartsAgain(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	release := make(chan struct{})
	stall := l.srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Skip: 2, Action: emulator.Stall{Until: release}})
	file := l.file("minutes.docx", bytes.Repeat([]byte("agenda "), 200_000))
	to := []string{"--journal", l.journal, "--to", l.url + dest.SandboxPath, "--no-auth", "--method", "resumable", "--chunk-size", "256KiB"}

	ctx, interrupt := context.WithCancel(context.Background())
	done := make(chan int)
	go func() { done <- Send(ctx, append(to, file), io.Discard, io.Discard) }()
	deadline := time.Now().Add(10 * time.Second)
	for stall.Count() == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	interrupt()
	if code := <-done; code != exitFailed {
		t.Fatalf("interrupted send exited %d, want 1", code)
	}
	close(release)
	l.srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageQuery}, Action: emulator.ExpireSession{}})
	// Slow enough for the display to see the new upload under way.
	l.srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Skip: 1, Action: emulator.Stall{For: 500 * time.Millisecond}})

	code, stdout, stderr := l.send(append(to[2:], "--resume")...)
	if code != exitOK {
		t.Fatalf("resume exited %d:\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "The earlier upload had expired, so this file starts again from the beginning.") {
		t.Errorf("the output does not say why the file started again:\n%s", stdout)
	}
	if objs := l.srv.Objects(); len(objs) != 1 || objs[0].SHA256 != fileSHA(t, file) {
		t.Fatalf("objects %+v, want one holding the file", objs)
	}
	if code, stdout, _ := l.send(append(to[2:], "--resume")...); code != exitOK || stdout != "Nothing to resume: every upload has finished.\n" {
		t.Errorf("resume once the upload is done: exit %d, %q", code, stdout)
	}
}

// TestQueueRemoveGivesUpOnAnUpload: an upload that keeps failing can be taken
// off the list, so that "hoist send --resume" stops trying it.
func TestQueueRemoveGivesUpOnAnUpload(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	l.srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Times: -1,
		Action: emulator.Answer{Status: http.StatusForbidden, Reason: "forbidden"}})
	file := l.file("old plan.txt", []byte("plan"))
	if code, stdout, stderr := l.send("--to", l.url+dest.SandboxPath, "--no-auth", file); code != exitFailed {
		t.Fatalf("exit %d, want 1:\n%s%s", code, stdout, stderr)
	}
	queue := func(args ...string) (code int, stdout, stderr string) {
		var out, errOut bytes.Buffer
		code = Queue(context.Background(), append(args, "--journal", l.journal), &out, &errOut)
		return code, out.String(), errOut.String()
	}
	if _, stdout, _ := queue(); !strings.Contains(stdout, "0 of 1 file done") {
		t.Errorf("the list before removing:\n%s", stdout)
	}
	if code, stdout, stderr := queue("remove", "nothing.txt"); code != exitFailed || stderr != "nothing.txt is not in the list of uploads.\n" {
		t.Errorf("removing an unknown file: exit %d, %q%q", code, stdout, stderr)
	}
	if code, stdout, stderr := queue("remove", "old plan.txt"); code != exitOK || stdout != "old plan.txt is off the list.\n" {
		t.Errorf("remove: exit %d, %q%q", code, stdout, stderr)
	}
	if _, stdout, _ := queue(); !strings.Contains(stdout, "No uploads.") {
		t.Errorf("the list after removing:\n%s", stdout)
	}
	if code, stdout, _ := l.send("--resume", "--no-auth"); code != exitOK || stdout != "Nothing to resume: the list of uploads is empty.\n" {
		t.Errorf("resume after removing: exit %d:\n%s", code, stdout)
	}
}

// TestQueueShowsAndDoesTheEnginesActions: "hoist queue" lists, for each
// upload, exactly the actions the engine's table allows in its state (in the
// table and in --json), "hoist queue ACTION FILE" does them, and an action
// the table does not allow is refused in a sentence and changes nothing.
func TestQueueShowsAndDoesTheEnginesActions(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	fault := l.srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Times: -1,
		Action: emulator.Answer{Status: http.StatusForbidden, Reason: "forbidden"}})
	failed := l.file("plan.txt", []byte("plan"))
	if code, stdout, stderr := l.send("--to", l.url+dest.SandboxPath, "--no-auth", failed); code != exitFailed {
		t.Fatalf("exit %d, want 1:\n%s%s", code, stdout, stderr)
	}
	fault.Remove()
	if code, stdout, stderr := l.send("--to", l.url+dest.SandboxPath, "--no-auth", l.file("done.txt", []byte("done"))); code != exitOK {
		t.Fatalf("exit %d:\n%s%s", code, stdout, stderr)
	}
	queue := func(args ...string) (code int, stdout, stderr string) {
		var out, errOut bytes.Buffer
		code = Queue(context.Background(), append(args, "--journal", l.journal), &out, &errOut)
		return code, out.String(), errOut.String()
	}
	// check lists the uploads and compares their actions with the table's.
	check := func(want map[string]engine.State) {
		t.Helper()
		_, stdout, _ := queue("--json")
		seen := 0
		for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
			if line == "" {
				continue
			}
			var j jobJSON
			if err := json.Unmarshal([]byte(line), &j); err != nil {
				t.Fatalf("%v: %s", err, line)
			}
			if j.State != string(want[j.Name]) {
				t.Errorf("%s is %s, want %s", j.Name, j.State, want[j.Name])
			}
			var table []string
			for _, a := range engine.ActionsFor(engine.State(j.State), engine.Facts{}) {
				table = append(table, string(a))
			}
			if !slices.Equal(j.Actions, table) {
				t.Errorf("%s (%s): --json actions %v, the table's %v", j.Name, j.State, j.Actions, table)
			}
			seen++
		}
		if seen != len(want) {
			t.Errorf("%d uploads listed, want %d", seen, len(want))
		}
		_, stdout, _ = queue()
		for name, s := range want {
			var table []string
			for _, a := range engine.ActionsFor(s, engine.Facts{}) {
				table = append(table, string(a))
			}
			if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `\s.*\s` + regexp.QuoteMeta(strings.Join(table, ",")) + `\s`).MatchString(stdout) {
				t.Errorf("the list does not give %s the actions %v:\n%s", name, table, stdout)
			}
		}
	}
	check(map[string]engine.State{"plan.txt": engine.Failed, "done.txt": engine.Done})

	if code, stdout, stderr := queue("pause", "plan.txt"); code != exitFailed || stdout != "" || stderr != "plan.txt: “Pause” is not possible now: this upload is marked “Failed”.\n" {
		t.Errorf("pause of a failed upload: exit %d, %q%q", code, stdout, stderr)
	}
	if code, _, stderr := queue("retry", "done.txt"); code != exitFailed || !strings.Contains(stderr, "“Retry” is not possible now: this upload is marked “Done”.") {
		t.Errorf("retry of a finished upload: exit %d, %q", code, stderr)
	}
	check(map[string]engine.State{"plan.txt": engine.Failed, "done.txt": engine.Done})

	if code, stdout, stderr := queue("retry", "plan.txt"); code != exitOK || !strings.Contains(stdout, "plan.txt will be tried again") {
		t.Errorf("retry: exit %d, %q%q", code, stdout, stderr)
	}
	// Opened again, an upload that was waiting comes back paused.
	check(map[string]engine.State{"plan.txt": engine.Paused, "done.txt": engine.Done})
	if code, stdout, stderr := queue("cancel", "plan.txt"); code != exitOK || stdout != "plan.txt is canceled.\n" {
		t.Errorf("cancel: exit %d, %q%q", code, stdout, stderr)
	}
	check(map[string]engine.State{"plan.txt": engine.Canceled, "done.txt": engine.Done})
	if code, stdout, stderr := queue("remove", "plan.txt", "done.txt"); code != exitOK {
		t.Errorf("remove: exit %d, %q%q", code, stdout, stderr)
	}
	check(map[string]engine.State{})
}

// TestRelativePathsAreKeptAbsolute: a file named relative to one folder
// (missing when sent, so refused) is kept with its absolute path, so
// `hoist queue retry later.txt` from another folder, then `hoist send
// --resume` there, sends that very file.
func TestRelativePathsAreKeptAbsolute(t *testing.T) {
	emu, base := serveEmulator(t, emulator.Options{})
	home := t.TempDir()
	a, b := filepath.Join(home, "A"), filepath.Join(home, "B")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	journalPath := filepath.Join(home, "journal.db")
	run := func(dir string, args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(os.Args[0], append(args, "--journal", journalPath)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), childEnv+"=1",
			"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "data"))
		out, _ := cmd.CombinedOutput()
		return cmd.ProcessState.ExitCode(), string(out)
	}
	if code, out := run(a, "send", "--to", base+dest.SandboxPath, "--no-auth", "later.txt"); code != exitFailed || !strings.Contains(out, "no longer there") {
		t.Fatalf("sending a missing file: exit %d:\n%s", code, out)
	}
	if err := os.WriteFile(filepath.Join(a, "later.txt"), []byte("later"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := run(b, "queue", "--json"); code != 0 || !strings.Contains(out, `"file":"`+filepath.Join(a, "later.txt")+`"`) {
		t.Errorf("the list does not hold the absolute path: exit %d:\n%s", code, out)
	}
	if code, out := run(b, "queue", "retry", "later.txt"); code != 0 {
		t.Fatalf("hoist queue retry later.txt from another folder: exit %d:\n%s", code, out)
	}
	if code, out := run(b, "send", "--resume", "--no-auth"); code != 0 {
		t.Fatalf("hoist send --resume from another folder: exit %d:\n%s", code, out)
	}
	if objs := emu.Objects(); len(objs) != 1 || objs[0].Size != int64(len("later")) {
		t.Errorf("the server holds %+v, want the file", objs)
	}
}
