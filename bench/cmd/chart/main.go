// Command chart draws the ratios of an informer benchmark run (the JSON
// that cmd/informer or cmd/crinformer writes with -json) as an SVG: one
// panel per figure, one bar per scenario, and the goal as a dashed line.
//
//	cd bench && go run ./cmd/chart -in results/informer.json -out ../docs/benchmarks.svg
//	cd bench && go run ./cmd/chart -in results/crinformer.json -out ../docs/benchmarks-cr.svg
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"math"
	"os"
	"strings"
)

// The parts of cmd/informer's report the chart reads.
type report struct {
	Machine   string `json:"machine"`
	Date      string `json:"date"`
	Rounds    int    `json:"rounds"`
	Server    string `json:"server"`
	Scenarios []struct {
		Pods    int    `json:"pods"`
		Objects int    `json:"objects"` // cmd/crinformer
		Kind    string `json:"kind"`    // cmd/crinformer: typed or dynamic
		Shape   string `json:"shape"`
		Mode    string `json:"mode"`
		Figures []struct {
			Name     string  `json:"name"`
			Kubewire float64 `json:"kubewire"`
			ClientGo float64 `json:"client_go"`
			Ratio    float64 `json:"ratio"`
			Goal     string  `json:"goal"`
			Met      *bool   `json:"met"`
			Absolute bool    `json:"absolute"`
		} `json:"figures"`
	} `json:"scenarios"`
}

// panel is one figure of the report.
type panel struct {
	figure string // the figure's name in the report
	title  string
	goal   float64
	// higher: the goal is a floor (events per second); absolute: bars are
	// kubewire's own value and client-go's is marked beside it.
	higher, absolute bool
	// kind, when set, keeps the scenarios of that kind only.
	kind string
}

// crPanels are cmd/crinformer's figures and the JSON-path issue's goals.
var crPanels = []panel{
	{figure: "heap per cached object", title: "typed CRs: live heap per cached object, kubewire / controller-runtime", goal: 0.6, kind: "typed"},
	{figure: "heap per cached object", title: "dynamic CRs: live heap per cached object, kubewire / dynamicinformer", goal: 0.35, kind: "dynamic"},
	{figure: "allocs per object (sync)", title: "allocations per object during sync, kubewire / client-go", goal: 0.3},
	{figure: "sync time", title: "time to synced cache, kubewire / client-go", goal: 0.4},
	{figure: "peak RSS (sync)", title: "peak RSS during sync, kubewire / client-go", goal: 0.5},
	{figure: "JSON watch events/s to a handler", title: "JSON watch events per second, kubewire / client-go (higher is better)", goal: 3, higher: true},
}

var panels = []panel{
	{"heap per cached Pod", "live heap per cached Pod, kubewire / client-go", 0.6, false, false, ""},
	{"allocs per Pod (sync)", "allocations per Pod during sync, kubewire / client-go", 0.5, false, false, ""},
	{"sync time", "time to synced cache, kubewire / client-go (goal for 50,000 Pods)", 0.8, false, false, ""},
	{"CPU time (sync)", "CPU time to synced cache, kubewire / client-go (no goal)", 0, false, false, ""},
	{"peak RSS (sync)", "peak RSS during sync, kubewire / client-go", 0.7, false, false, ""},
	{"peak RSS (relist)", "peak RSS during a relist after 410, kubewire / client-go", 0.7, false, false, ""},
	{"peak/steady live heap (relist)", "peak / steady live heap in a relist (bar: kubewire, tick: client-go)", 1.2, false, true, ""},
	{"watch events/s to a handler", "watch events per second, kubewire / client-go (higher is better)", 1.5, true, false, ""},
}

const (
	width    = 960
	cols     = 2
	panelW   = width / cols
	labelW   = 150
	barH     = 13
	barGap   = 5
	titleH   = 46
	axisH    = 22
	margin   = 16
	headerH  = 72
	colorMet = "#2e8b57"
	colorMis = "#d2691e"
	colorNA  = "#8c8c8c"
)

func main() {
	in := flag.String("in", "results/informer.json", "the report cmd/informer wrote with -json")
	out := flag.String("out", "../docs/benchmarks.svg", "the SVG to write")
	flag.Parse()
	b, err := os.ReadFile(*in)
	if err == nil {
		var rep report
		if err = json.Unmarshal(b, &rep); err == nil {
			err = os.WriteFile(*out, []byte(draw(&rep)), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "chart:", err)
		os.Exit(1)
	}
}

func draw(rep *report) string {
	ps, title, what := panels, "kubewire informer vs client-go v0.36.3: ratios against the goals", "fake API server over loopback, protobuf"
	cr := len(rep.Scenarios) > 0 && rep.Scenarios[0].Kind != ""
	if cr {
		ps, title = crPanels, "kubewire custom-resource informers vs client-go v0.36.3 / controller-runtime v0.24: ratios against the goals"
		what = "fake API server over loopback, JSON"
		if rep.Server == "kube-apiserver" {
			what = "kube-apiserver v1.36.3 with etcd, JSON"
		}
	}
	n := len(rep.Scenarios)
	if cr {
		n = 0 // each panel shows one kind, or both
		for _, p := range ps {
			m := 0
			for _, sc := range rep.Scenarios {
				if p.kind == "" || p.kind == sc.Kind {
					m++
				}
			}
			n = max(n, m)
		}
	}
	panelH := titleH + n*(barH+barGap) + axisH
	rows := (len(ps) + cols - 1) / cols
	height := headerH + rows*(panelH+margin) + 24
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="11">`+"\n", width, height, width, height)
	fmt.Fprintf(&s, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", width, height)
	fmt.Fprintf(&s, `<text x="%d" y="24" font-size="16" font-weight="bold">%s</text>`+"\n", margin, esc(title))
	fmt.Fprintf(&s, `<text x="%d" y="42" fill="#555">%s; %s; median of %d rounds; %s.</text>`+"\n",
		margin, esc(rep.Machine), what, rep.Rounds, esc(rep.Date))
	fmt.Fprintf(&s, `<text x="%d" y="57" fill="#555">Bars: green, goal met; orange, missed; grey, no goal. Dashed red line: the goal; grey line: parity (1.0). Lower is better but for events per second.</text>`+"\n", margin)
	for i, p := range ps {
		x := (i % cols) * panelW
		y := headerH + (i/cols)*(panelH+margin)
		drawPanel(&s, rep, p, x, y)
	}
	s.WriteString("</svg>\n")
	return s.String()
}

func drawPanel(s *strings.Builder, rep *report, p panel, x0, y0 int) {
	type bar struct {
		label     string
		v, cg     float64
		met       *bool
		hasFigure bool
	}
	var bars []bar
	top := p.goal
	for _, sc := range rep.Scenarios {
		if p.kind != "" && sc.Kind != p.kind {
			continue
		}
		b := bar{label: fmt.Sprintf("%dk %s %s", sc.Pods/1000, sc.Shape, modeName(sc.Mode))}
		if sc.Kind != "" {
			b.label = fmt.Sprintf("%dk %s %s", sc.Objects/1000, sc.Shape, sc.Kind)
		}
		for _, f := range sc.Figures {
			if f.Name != p.figure {
				continue
			}
			b.hasFigure, b.met = true, f.Met
			if p.absolute {
				b.v, b.cg = f.Kubewire, f.ClientGo
			} else {
				b.v = f.Ratio
			}
		}
		top = math.Max(top, math.Max(b.v, b.cg))
		bars = append(bars, b)
	}
	top = math.Max(1, niceCeil(top*1.08))
	plotX := x0 + margin + labelW
	plotW := panelW - 2*margin - labelW - 34
	scale := func(v float64) float64 { return float64(plotX) + v/top*float64(plotW) }
	fmt.Fprintf(s, `<text x="%d" y="%d" font-size="12" font-weight="bold">%s</text>`+"\n", x0+margin, y0+14, esc(p.title))
	y := y0 + titleH - 8
	plotTop, plotBottom := y, y+len(bars)*(barH+barGap)
	// Ticks and grid.
	step := tickStep(top)
	for t := 0.0; t <= top+1e-9; t += step {
		tx := scale(t)
		fmt.Fprintf(s, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e6e6e6"/>`+"\n", tx, plotTop, tx, plotBottom)
		fmt.Fprintf(s, `<text x="%.1f" y="%d" text-anchor="middle" fill="#666">%s</text>`+"\n", tx, plotBottom+13, trim(t))
	}
	for i, b := range bars {
		by := y + i*(barH+barGap)
		fmt.Fprintf(s, `<text x="%d" y="%d" text-anchor="end" fill="#333">%s</text>`+"\n", plotX-6, by+barH-3, esc(b.label))
		if !b.hasFigure {
			continue
		}
		color := colorNA
		if b.met != nil && *b.met {
			color = colorMet
		} else if b.met != nil {
			color = colorMis
		}
		fmt.Fprintf(s, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n", plotX, by, scale(b.v)-float64(plotX), barH, color)
		if p.absolute {
			cx := scale(b.cg)
			fmt.Fprintf(s, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#333" stroke-width="2"/>`+"\n", cx, by-1, cx, by+barH+1)
		}
		fmt.Fprintf(s, `<text x="%.1f" y="%d" fill="#333" stroke="#fff" stroke-width="3" paint-order="stroke">%.2f</text>`+"\n", scale(b.v)+4, by+barH-3, b.v)
	}
	if !p.absolute {
		px := scale(1)
		fmt.Fprintf(s, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#999" stroke-width="1.5"/>`+"\n", px, plotTop-3, px, plotBottom)
	}
	if p.goal > 0 {
		gx := scale(p.goal)
		sign := "≤"
		if p.higher {
			sign = "≥"
		}
		fmt.Fprintf(s, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#b22222" stroke-width="1.5" stroke-dasharray="4 3"/>`+"\n", gx, plotTop-3, gx, plotBottom)
		fmt.Fprintf(s, `<text x="%.1f" y="%d" text-anchor="middle" fill="#b22222">goal %s %s</text>`+"\n", gx, plotTop-5, sign, trim(p.goal))
	}
}

func modeName(m string) string {
	if m == "watchlist" {
		return "watch-list"
	}
	return m
}

// niceCeil rounds v up to a multiple of 0.5 (or of 2 above 10).
func niceCeil(v float64) float64 {
	if v > 10 {
		return math.Ceil(v/2) * 2
	}
	return math.Ceil(v*2) / 2
}

func tickStep(top float64) float64 {
	switch {
	case top <= 2:
		return 0.25
	case top <= 4:
		return 0.5
	case top <= 10:
		return 1
	}
	return math.Ceil(top/10/2) * 2
}

func trim(v float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
}

func esc(s string) string { return html.EscapeString(s) }
