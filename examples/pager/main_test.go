package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kubewire/kubewire/pager"
)

// The example runs to completion against the embedded fake server, and
// its output is the README's.
func TestPagerRuns(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	// A guard against a hang, not a speed bound: the suite runs on loaded machines.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cfg := config{pods: 800, pageSize: 100, churn: true}
	if err := run(ctx, cfg, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	out := stdout.String()
	for _, want := range []string{
		"listing Pods in all namespaces of an embedded fake server (800 Pods seeded), 100 per page\n",
		"listed 800 Pods in 8 pages in ",
		"at resourceVersion 816\n", // 8 namespaces, 8 ServiceAccounts, 800 Pods
		"changes were made after the first page; the list is one snapshot, so it has none of them\n",
		"  NAMESPACE               PODS  RUNNING  PENDING  FAILED  OTHER\n",
		"  shop                     300      294        6       0      0\n",
		"  payments                 200      194        4       2      0\n",
		"  monitoring               100       99        1       0      0\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	bar := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(bar) != 4 || !strings.HasPrefix(bar[3], "[##############################] 100%  800/800 Pods, page 8") {
		t.Errorf("progress (not a terminal) is not four lines ending at 100%%:\n%s", stderr.String())
	}
}

// With a selector the server gives no count until the last page.
func TestPagerSelectorInNamespace(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	var stdout, stderr bytes.Buffer
	cfg := config{pods: 800, pageSize: 30, namespace: "shop", selector: "app=checkout"}
	if err := run(context.Background(), cfg, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "listed 100 Pods in 4 pages") || !strings.Contains(stdout.String(), "  shop                     100 ") {
		t.Errorf("output:\n%s", stdout.String())
	}
	if got := stderr.String(); got != "[##############################] 100%  100/100 Pods, page 4\n" {
		t.Errorf("progress = %q", got)
	}
}

func TestProgressBarOnATerminal(t *testing.T) {
	var b bytes.Buffer
	bar := &progressBar{w: &b, tty: true}
	bar.update(pagerProgress(1, 500, 1000, false))
	bar.update(pagerProgress(2, 1000, 1000, true))
	want := "\r[###############...............]  50%  500/1000 Pods, page 1" +
		"\r[##############################] 100%  1000/1000 Pods, page 2\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}

func pagerProgress(pages, items, total int, done bool) pager.Progress {
	return pager.Progress{Pages: pages, Items: items, Total: total, Done: done}
}

// A continue token that expires mid-way (410 Gone) restarts the list;
// the example counts the new snapshot from its start and ends with the
// right counts instead of failing.
func TestPagerRestartsAfterAnExpiredToken(t *testing.T) {
	t.Setenv("KUBECONFIG", "")
	var stdout, stderr bytes.Buffer
	cfg := config{pods: 800, pageSize: 100, expireAt: 2}
	if err := run(t.Context(), cfg, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	out := stdout.String()
	for _, want := range []string{
		"the continue token expired after ",
		"listed 800 Pods in 1 page in ", // listed again without a limit
		"the list started over 1 time after its continue token expired",
		"  shop                     300      294        6       0      0\n",
		"  monitoring               100       99        1       0      0\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
