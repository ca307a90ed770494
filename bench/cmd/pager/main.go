// Command pager lists the same Pods from the same fake API server with
// kubewire's pager and with client-go's tools/pager, in one run, and
// prints time, peak heap and peak RSS side by side with their ratios.
//
//	cd bench && go run ./cmd/pager -pods 100000
//
// The server runs in a child process (so its memory is not counted), and
// every measured list runs in a fresh child process of its own, in
// alternating order; the median of the rounds is reported. Two pairs are
// compared: streaming (kubewire Pager.Items against client-go
// ListPager.EachListItem) and gathering the whole list (Pager.ListAll
// against ListPager.List).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// result is what one measured list reports.
type result struct {
	Variant  string  `json:"variant"`
	Items    int     `json:"items"`
	Seconds  float64 `json:"seconds"`
	PeakHeap uint64  `json:"peak_heap"` // the most heap in objects seen while listing
	PeakRSS  uint64  `json:"peak_rss"`  // the process's VmHWM
}

// pairs are the variants compared: kubewire's first.
var pairs = []struct{ name, kubewire, clientgo string }{
	{"stream (Items / EachListItem)", "kubewire-items", "client-go-each"},
	{"stream, no read-ahead (Items / EachListItem)", "kubewire-items-sync", "client-go-each"},
	{"gather (ListAll / List)", "kubewire-listall", "client-go-list"},
}

func main() {
	serve := flag.Bool("serve", false, "internal: run the fake API server")
	variant := flag.String("variant", "", "internal: run one measured list")
	url := flag.String("url", "", "internal: the server's URL")
	token := flag.String("token", "", "internal: the server's token")
	pods := flag.Int("pods", 100_000, "Pods in the list")
	shape := flag.String("shape", "small", "small (about 1 KB in protobuf) or realistic (about 8 KB)")
	format := flag.String("format", "protobuf", "protobuf or json")
	pageSize := flag.Int64("pagesize", 500, "items per page")
	rounds := flag.Int("rounds", 3, "measured lists per variant; the median is reported")
	flag.Parse()

	var err error
	switch {
	case *serve:
		err = runServer(*pods, *shape, *format)
	case *variant != "":
		var r result
		r, err = measure(*variant, *url, *token, *format, *pageSize)
		if err == nil {
			err = json.NewEncoder(os.Stdout).Encode(r)
		}
	default:
		err = drive(*pods, *shape, *format, *pageSize, *rounds)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pager:", err)
		os.Exit(1)
	}
}

// drive starts the server, runs the rounds and prints the table.
func drive(pods int, shape, format string, pageSize int64, rounds int) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	srv := exec.Command(self, "-serve", "-pods", fmt.Sprint(pods), "-shape", shape, "-format", format)
	srv.Stderr = os.Stderr
	stdin, err := srv.StdinPipe() // closing it stops the server
	if err != nil {
		return err
	}
	stdout, err := srv.StdoutPipe()
	if err != nil {
		return err
	}
	start := time.Now()
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() {
		stdin.Close()
		_ = srv.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return fmt.Errorf("reading the server's address: %w", err)
	}
	url, token, ok := strings.Cut(strings.TrimSpace(line), " ")
	if !ok {
		return fmt.Errorf("server said %q", line)
	}
	fmt.Fprintf(os.Stderr, "server seeded with %d %s Pods in %v\n", pods, shape, time.Since(start).Round(time.Millisecond))

	results := map[string][]result{}
	for round := range rounds {
		for i, p := range pairs {
			order := []string{p.kubewire, p.clientgo}
			if (round+i)%2 == 1 {
				slices.Reverse(order)
			}
			for _, v := range order {
				r, err := runChild(self, v, url, token, format, pageSize)
				if err != nil {
					return err
				}
				if r.Items != pods {
					return fmt.Errorf("%s listed %d items, want %d", v, r.Items, pods)
				}
				fmt.Fprintf(os.Stderr, "round %d %-17s %7.3fs heap %6.1f MiB rss %6.1f MiB\n", round+1, v, r.Seconds, mib(r.PeakHeap), mib(r.PeakRSS))
				results[v] = append(results[v], r)
			}
		}
	}

	fmt.Printf("\n%d %s Pods, %s, pages of %d, median of %d rounds (GOMAXPROCS as the machine)\n\n", pods, shape, format, pageSize, rounds)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "pair\tfigure\tkubewire\tclient-go\tratio\t")
	for _, p := range pairs {
		kw, cg := median(results[p.kubewire]), median(results[p.clientgo])
		fmt.Fprintf(tw, "%s\ttime\t%.3f s\t%.3f s\t%.2f\t\n", p.name, kw.Seconds, cg.Seconds, kw.Seconds/cg.Seconds)
		fmt.Fprintf(tw, "%s\tpeak heap\t%.1f MiB\t%.1f MiB\t%.2f\t\n", p.name, mib(kw.PeakHeap), mib(cg.PeakHeap), float64(kw.PeakHeap)/float64(cg.PeakHeap))
		fmt.Fprintf(tw, "%s\tpeak RSS\t%.1f MiB\t%.1f MiB\t%.2f\t\n", p.name, mib(kw.PeakRSS), mib(cg.PeakRSS), float64(kw.PeakRSS)/float64(cg.PeakRSS))
	}
	return tw.Flush()
}

// runChild measures one list in a fresh process.
func runChild(self, variant, url, token, format string, pageSize int64) (result, error) {
	cmd := exec.Command(self, "-variant", variant, "-url", url, "-token", token, "-format", format, "-pagesize", fmt.Sprint(pageSize))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return result{}, fmt.Errorf("%s: %w", variant, err)
	}
	var r result
	if err := json.Unmarshal(out, &r); err != nil {
		return result{}, fmt.Errorf("%s said %q: %w", variant, out, err)
	}
	return r, nil
}

// median returns the median of each figure separately.
func median(rs []result) result {
	pick := func(f func(result) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	return result{
		Items:    rs[0].Items,
		Seconds:  pick(func(r result) float64 { return r.Seconds }),
		PeakHeap: uint64(pick(func(r result) float64 { return float64(r.PeakHeap) })),
		PeakRSS:  uint64(pick(func(r result) float64 { return float64(r.PeakRSS) })),
	}
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }
