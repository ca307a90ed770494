// Command decodecount decodes one PodList a few times in one mode and
// exits, so that a tool counting instructions (valgrind --tool=callgrind)
// can compare kubewire with k8s.io/api on a busy machine, where timings
// are unreliable:
//
//	go build -o /tmp/dc ./cmd/decodecount
//	valgrind --tool=callgrind /tmp/dc -mode kubewire
//	valgrind --tool=callgrind /tmp/dc -mode upstream
//	valgrind --tool=callgrind /tmp/dc -mode none   # setup only, to subtract
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"

	kwcorev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/bench/internal/podgen"
	corev1 "k8s.io/api/core/v1"
)

func main() {
	mode := flag.String("mode", "kubewire", "kubewire, upstream or none")
	shape := flag.String("shape", "realistic", "small or realistic")
	pods := flag.Int("pods", 1000, "Pods in the list")
	repeat := flag.Int("repeat", 5, "decodes")
	flag.Parse()
	s := podgen.Realistic
	if *shape == "small" {
		s = podgen.Small
	}
	enc, err := podgen.Encode(s, *pods)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	runtime.GC()
	var keep any
	for i := 0; i < *repeat; i++ {
		switch *mode {
		case "kubewire":
			l := new(kwcorev1.PodList)
			err = l.Unmarshal(enc.Protobuf)
			keep = l
		case "upstream":
			l := new(corev1.PodList)
			err = l.Unmarshal(enc.Protobuf)
			keep = l
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	runtime.KeepAlive(keep)
}
