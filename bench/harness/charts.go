package harness

import (
	"errors"
	"fmt"
	"image/color"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Chart file names, in the docs folder.
const (
	ThroughputChart = "bench-throughput.png"
	MemoryChart     = "bench-memory.png"
)

var seriesColors = map[string]color.Color{
	ClientCurl:   color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff},
	ClientGoogle: color.RGBA{R: 0xdb, G: 0x44, B: 0x37, A: 0xff},
	ClientHoist:  color.RGBA{R: 0x1a, G: 0x73, B: 0xe8, A: 0xff},
	ClientEngine: color.RGBA{R: 0x0f, G: 0x9d, B: 0x58, A: 0xff},
}

// errPoints are medians with their min–max range as error bars.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// drawCharts draws throughput and peak memory of the big file by chunk size.
func (r *Report) drawCharts(dir string) error {
	z := r.Sizes
	ticks := make([]plot.Tick, len(z.Chunks))
	for i, c := range z.Chunks {
		ticks[i] = plot.Tick{Value: float64(i), Label: chunkLabel(c)}
	}
	curl := r.find(WorkBig, "hash", NetDirect, ClientCurl, -1, 1)
	read := r.find(WorkBig, "hash", NetDirect, ClientRead, -1, 1)

	through := newChart(fmt.Sprintf("Uploading one %s file on loopback (hash-only emulator)", size(z.Big)), "chunk size", "MiB/s (median, min–max)", ticks)
	memory := newChart(fmt.Sprintf("Peak memory while uploading one %s file", size(z.Big)), "chunk size", "peak RSS, MiB (median, min–max)", ticks)
	var errs []error
	for i, client := range []string{ClientGoogle, ClientHoist, ClientEngine} {
		var tp, mp errPoints
		for j, c := range z.Chunks {
			cr := r.find(WorkBig, "hash", NetDirect, client, c, 1)
			if !cr.ok() {
				continue
			}
			x := float64(j) + 0.05*float64(i-1) // side by side, so the ranges do not hide each other
			tp.XYs = append(tp.XYs, plotter.XY{X: x, Y: cr.MiBps.Median})
			tp.YErrors = append(tp.YErrors, struct{ Low, High float64 }{cr.MiBps.Median - cr.MiBps.Min, cr.MiBps.Max - cr.MiBps.Median})
			mp.XYs = append(mp.XYs, plotter.XY{X: x, Y: cr.RSSMiB.Median})
			mp.YErrors = append(mp.YErrors, struct{ Low, High float64 }{cr.RSSMiB.Median - cr.RSSMiB.Min, cr.RSSMiB.Max - cr.RSSMiB.Median})
		}
		errs = append(errs, addSeries(through, clientNames[client], seriesColors[client], tp), addSeries(memory, clientNames[client], seriesColors[client], mp))
	}
	if curl.ok() {
		addLevel(through, fmt.Sprintf("curl, one PUT (%.0f MiB/s)", curl.MiBps.Median), seriesColors[ClientCurl], curl.MiBps.Median, len(z.Chunks))
		addLevel(memory, fmt.Sprintf("curl, one PUT (%.1f MiB)", curl.RSSMiB.Median), seriesColors[ClientCurl], curl.RSSMiB.Median, len(z.Chunks))
	}
	addLevel(memory, "target for hoist send (40 MiB)", color.RGBA{R: 0xf4, G: 0xb4, B: 0x00, A: 0xff}, 40, len(z.Chunks))
	if read.ok() {
		through.Title.Text += fmt.Sprintf("\nreading the file alone: %.0f MiB/s", read.MiBps.Median)
	}
	errs = append(errs,
		through.Save(9*vg.Inch, 5*vg.Inch, filepath.Join(dir, ThroughputChart)),
		memory.Save(9*vg.Inch, 5*vg.Inch, filepath.Join(dir, MemoryChart)))
	errs = append(errs, r.drawLatencyChart(dir))
	return errors.Join(errs...)
}

func newChart(title, x, y string, ticks []plot.Tick) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.4, float64(len(ticks))-0.6
	p.Y.Min = 0
	p.Legend.Top = false
	p.Legend.Left = true
	p.Legend.XOffs = vg.Points(8)
	p.Legend.YOffs = vg.Points(8)
	p.Add(plotter.NewGrid())
	return p
}

func addSeries(p *plot.Plot, name string, c color.Color, pts errPoints) error {
	if len(pts.XYs) == 0 {
		return nil
	}
	line, points, err := plotter.NewLinePoints(pts.XYs)
	if err != nil {
		return err
	}
	line.Color = c
	line.Width = vg.Points(2)
	points.Color = c
	points.Shape = draw.CircleGlyph{}
	points.Radius = vg.Points(3)
	bars, err := plotter.NewYErrorBars(pts)
	if err != nil {
		return err
	}
	bars.Color = c
	bars.Width = vg.Points(1.5)
	p.Add(line, points, bars)
	p.Legend.Add(name, line, points)
	if max := maxY(pts); max > p.Y.Max {
		p.Y.Max = max * 1.1
	}
	return nil
}

func maxY(pts errPoints) float64 {
	var m float64
	for i, xy := range pts.XYs {
		m = max(m, xy.Y+pts.YErrors[i].High)
	}
	return m
}

// addLevel draws a horizontal dashed line across the chart.
func addLevel(p *plot.Plot, name string, c color.Color, y float64, n int) {
	line, err := plotter.NewLine(plotter.XYs{{X: -0.4, Y: y}, {X: float64(n) - 0.6, Y: y}})
	if err != nil {
		return
	}
	line.Color = c
	line.Width = vg.Points(1.5)
	line.Dashes = []vg.Length{vg.Points(6), vg.Points(4)}
	p.Add(line)
	p.Legend.Add(name, line)
	if y*1.15 > p.Y.Max {
		p.Y.Max = y * 1.15
	}
}
