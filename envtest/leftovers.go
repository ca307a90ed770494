package envtest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// dataDirPrefix starts the name of every Env's temporary folder.
const dataDirPrefix = "kubewire-envtest-"

// record is an Env's file in ROOT/running/: its test process, its servers
// and its folder. A test process killed outright (a panic, go test's
// -timeout) leaves it behind, and the next Start, in any process, kills
// the servers it names if they still run and deletes the folder.
type record struct {
	path string // "" when there is no cache folder to write it in

	mu   sync.Mutex
	data recordData
}

type recordData struct {
	Owner pidEntry   `json:"owner"` // the test process
	Procs []pidEntry `json:"procs"` // its servers
	Dir   string     `json:"dir"`   // the Env's folder
}

type pidEntry struct {
	PID   int    `json:"pid"`
	Start string `json:"start"` // procStart, "" where unknown
	Name  string `json:"name,omitempty"`
}

// newRecord prepares the record of an Env in dir; it writes nothing yet.
func newRecord(root, dir string) *record {
	r := &record{data: recordData{Dir: dir}}
	start, _ := procStart(os.Getpid())
	r.data.Owner = pidEntry{PID: os.Getpid(), Start: start}
	running := filepath.Join(root, "running")
	if root == "" || os.MkdirAll(running, 0o755) != nil {
		return r
	}
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	r.path = filepath.Join(running, strconv.Itoa(os.Getpid())+"-"+hex.EncodeToString(b)+".json")
	return r
}

// set records the servers now running and rewrites the file. Failing to
// write it is not an error: it only helps clean up after a crash.
func (r *record) set(procs []*proc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.data.Procs = r.data.Procs[:0]
	for _, p := range procs {
		if p != nil {
			r.data.Procs = append(r.data.Procs, pidEntry{PID: p.pid(), Start: p.start, Name: p.name})
		}
	}
	if r.path == "" {
		return
	}
	b, _ := json.MarshalIndent(r.data, "", "  ")
	tmp := r.path + ".tmp"
	if os.WriteFile(tmp, b, 0o644) == nil {
		_ = os.Rename(tmp, r.path)
	}
}

// remove deletes the file: the Env stopped cleanly.
func (r *record) remove() {
	if r.path != "" {
		_ = os.Remove(r.path)
	}
}

// killLeftovers cleans up after test processes that died with servers
// running: for each record whose owner is gone it kills the servers that
// still run (the same pid with the same start time, on Linux; elsewhere
// they are reported), deletes the folder and the record. Records of live
// processes belong to concurrent tests and are left alone.
func killLeftovers(root string, log io.Writer) {
	dir := filepath.Join(root, "running")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var rec recordData
		if err := json.Unmarshal(b, &rec); err != nil || rec.Owner.PID == 0 {
			_ = os.Remove(path)
			continue
		}
		if alive(rec.Owner) {
			continue
		}
		for _, p := range rec.Procs {
			switch {
			case p.Start != "" && alive(p):
				fmt.Fprintf(log, "envtest: killing %s (pid %d) left running by test process %d\n", p.Name, p.PID, rec.Owner.PID)
				killGroup(p.PID)
			case p.Start == "" && pidExists(p.PID):
				fmt.Fprintf(log, "envtest: %s (pid %d) of test process %d may still run; check and kill it by hand\n", p.Name, p.PID, rec.Owner.PID)
			}
		}
		if isDataDir(rec.Dir) {
			_ = os.RemoveAll(rec.Dir)
		}
		_ = os.Remove(path)
	}
}

// alive reports whether the recorded process still runs: the same pid
// with the same start time, or where start times are unknown, any
// process with that pid.
func alive(e pidEntry) bool {
	if e.Start == "" {
		return pidExists(e.PID)
	}
	s, ok := procStart(e.PID)
	return ok && s == e.Start
}

// isDataDir guards RemoveAll against a corrupt record: only folders that
// Start creates are removed.
func isDataDir(d string) bool {
	if d == "" || !filepath.IsAbs(d) || !strings.HasPrefix(filepath.Base(d), dataDirPrefix) {
		return false
	}
	fi, err := os.Stat(d)
	return err == nil && fi.IsDir()
}
