// Command cluster runs a real etcd and kube-apiserver (the e2e harness's)
// until its standard input ends, for programs outside the e2e module: the
// benchmarks run against it, and anyone can point kubectl or an example at
// it.
//
//	cd e2e && go run ./cmd/cluster
//
// Once the servers are ready it prints one line of JSON, then obeys one
// command per line on its standard input, answering each with "ok" or
// "error: ..." on one line:
//
//	{"url":"https://127.0.0.1:PORT","token":"...","ca_file":"...","kubeconfig":"...","etcd_url":"..."}
//	restart   restart kube-apiserver (same URL; etcd keeps the data)
//	compact   compact etcd's history up to now
//
// When standard input ends (or on Ctrl-C) it stops both servers and exits.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/kubewire/kubewire/e2e/harness"
)

func main() {
	flags := flag.String("apiserver-flags", "", "extra kube-apiserver flags, space-separated")
	flag.Parse()
	if err := run(strings.Fields(*flags)); err != nil {
		fmt.Fprintln(os.Stderr, "cluster:", err)
		os.Exit(1)
	}
}

func run(apiserverFlags []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := harness.Start(ctx, harness.Options{Name: "local", APIServerFlags: apiserverFlags, Log: os.Stderr})
	if err != nil {
		return err
	}
	defer c.Stop()
	hello, err := json.Marshal(map[string]string{
		"url": c.URL, "token": c.AdminToken, "ca_file": c.CAFile, "kubeconfig": c.Kubeconfig, "etcd_url": c.EtcdURL,
	})
	if err != nil {
		return err
	}
	fmt.Printf("%s\n", hello)

	lines := make(chan string)
	go func() {
		defer close(lines)
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			lines <- in.Text()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case line, ok := <-lines:
			if !ok {
				return nil
			}
			var err error
			switch strings.TrimSpace(line) {
			case "restart":
				err = c.RestartAPIServer(ctx)
			case "compact":
				_, err = c.Compact(ctx)
			case "":
				continue
			default:
				err = fmt.Errorf("unknown command %q (restart, compact)", line)
			}
			if err != nil {
				fmt.Printf("error: %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
			} else {
				fmt.Println("ok")
			}
		}
	}
}
