package v1_test

import (
	"encoding/json"
	"fmt"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

func ExampleTime() {
	created := metav1.Date(2026, time.November, 22, 3, 10, 52, 0, time.FixedZone("CET", 3600))
	b, _ := json.Marshal(created)
	fmt.Println(string(b))

	var back metav1.Time
	_ = json.Unmarshal(b, &back)
	fmt.Println(back == created, back.Location())

	wire, _ := back.Marshal()
	fmt.Printf("% x\n", wire)
	// Output:
	// "2026-11-22T02:10:52Z"
	// true UTC
	// 08 ac 9e 89 d8 06 10 00
}

func ExampleDuration() {
	var cfg struct {
		Timeout metav1.Duration `json:"timeout"`
	}
	_ = json.Unmarshal([]byte(`{"timeout": "1m30s"}`), &cfg)
	fmt.Println(cfg.Timeout.Seconds())
	// Output: 90
}
