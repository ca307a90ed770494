package metrics_test

import (
	"bufio"
	"fmt"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/kubewire/kubewire/metrics"
)

// A program without a manager gives the hooks to the packages it uses
// (client.Config.Metrics here) and serves Handler on /metrics.
func Example() {
	m := metrics.New()
	// client.New(client.Config{..., Metrics: m.Client()}) makes the
	// client report each request like this:
	m.Client().Request("10.96.0.1:443", "GET", 200, 12*time.Millisecond)
	m.Client().Request("10.96.0.1:443", "PATCH", 409, 3*time.Millisecond)

	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "rest_client_requests_total{") {
			fmt.Println(sc.Text())
		}
	}
	// Output:
	// rest_client_requests_total{code="200",host="10.96.0.1:443",method="GET"} 1
	// rest_client_requests_total{code="409",host="10.96.0.1:443",method="PATCH"} 1
}
