package profreport

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromium finds headless Chromium, installing Debian's package when it is
// missing, as .ci/run does; the test skips only when that fails.
func chromium(t *testing.T) string {
	t.Helper()
	find := func() string {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				return p
			}
		}
		return ""
	}
	if p := find(); p != "" {
		return p
	}
	apt, err := exec.LookPath("apt-get")
	if err != nil {
		t.Skip("chromium is not installed and there is no apt-get to install it with; the page was not checked in a browser")
	}
	t.Log("chromium is missing: apt-get install chromium")
	out, err := exec.Command(apt, "install", "-y", "-qq", "chromium").CombinedOutput()
	if err != nil {
		out2, _ := exec.Command(apt, "update", "-qq").CombinedOutput()
		out = append(out, out2...)
		var out3 []byte
		out3, err = exec.Command(apt, "install", "-y", "-qq", "chromium").CombinedOutput()
		out = append(out, out3...)
	}
	if p := find(); p != "" {
		return p
	}
	t.Skipf("chromium is not installed and apt-get could not install it (%v); the page was not checked in a browser:\n%s", err, out)
	return ""
}

// runChromium runs headless Chromium on page (a path, with an optional
// #fragment) with the extra flags and returns its standard output.
func runChromium(t *testing.T, bin, page string, flags ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir=" + t.TempDir(), "--window-size=1400,2000"}, flags...)
	cmd := exec.CommandContext(ctx, bin, append(args, "file://"+page)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, stderr.Bytes())
	}
	return stdout.Bytes()
}

// TestPageInBrowser opens the page of session.json in headless Chromium and
// checks what a person would see: the figures, the tracks' names, a
// rectangle per slice once the page's script has run, and, on the
// screenshot, the colours of the bars and of the timeline's kernels.
func TestPageInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	bin := chromium(t)
	page := filepath.Join(t.TempDir(), "report.html")
	if err := load(t, "session.json").WriteHTMLFile(page); err != nil {
		t.Fatal(err)
	}
	dom := string(runChromium(t, bin, page, "--dump-dom"))
	if !strings.Contains(dom, `data-zoom="1"`) {
		t.Errorf("the page's script did not run to its end (no data-zoom=\"1\" on the timeline)")
	}
	for _, want := range []string{
		"Device 0: Ascend910B1, 24 AI cores (24 cube, 48 vector), copies at 100.00 GB/s",
		">15.9%<", ">23.9%<", ">16.8%<", "max 8 at +0.140 ms, mean 4.37",
		">matmul<", "200.000 µs (1×, mean 200.000 µs)", ">aclrtSynchronizeStream<",
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
	labels := regexp.MustCompile(`<div class="(?:row|header)"[^>]*>([^<]*)</div>`).FindAllStringSubmatch(dom, -1)
	var tracks []string
	for _, m := range labels {
		tracks = append(tracks, m[1])
	}
	want := "CANN (pid 4242)|Thread 4242|Thread 4250|Device 0: streams|Stream 1|Stream 2|Device 0: engines|AI Core|AI Vector Core|DMA|Scheduler"
	if got := strings.Join(tracks, "|"); got != want {
		t.Errorf("the timeline's rows are\n%s\nwant\n%s", got, want)
	}
	if n := len(taskRect.FindAllString(dom, -1)); n != 27 {
		t.Errorf("the timeline has %d task rectangles; want 27", n)
	}

	// Zoomed in four times, the axis has more ticks and the rectangles
	// widen.
	zoomed := string(runChromium(t, bin, page+"#zoom=4", "--dump-dom"))
	if !strings.Contains(zoomed, `data-zoom="4"`) {
		t.Errorf("#zoom=4 did not zoom the timeline in")
	}
	if a, b := strings.Count(dom, `<line class="grid"`), strings.Count(zoomed, `<line class="grid"`); b <= a {
		t.Errorf("the axis has %d ticks zoomed in, %d not; want more", b, a)
	}

	shot := filepath.Join(t.TempDir(), "report.png")
	runChromium(t, bin, page, "--screenshot="+shot, "--hide-scrollbars")
	img := decodePNG(t, shot)
	if b := img.Bounds(); b.Dx() != 1400 || b.Dy() != 2000 {
		t.Errorf("screenshot %v; want 1400×2000", b)
	}
	for name, c := range map[string]color.RGBA{
		"the utilization bars' blue":  {0x2f, 0x7e, 0xd8, 0xff},
		"the vector kernels' green":   {0x3a, 0x9e, 0x5c, 0xff},
		"the mixed kernel's purple":   {0x8a, 0x4f, 0xc7, 0xff},
		"the copies' orange":          {0xe0, 0x8a, 0x2c, 0xff},
		"the API calls' blue":         {0x4a, 0x90, 0xb8, 0xff},
		"the depth chart's pale fill": {0xcf, 0xe0, 0xf7, 0xff},
	} {
		if n := countColor(img, c); n < 50 {
			t.Errorf("the screenshot has %d pixels of %s (%v); want a visible area", n, name, c)
		}
	}
	if t.Failed() {
		keep := filepath.Join(os.TempDir(), "profreport-report.png")
		if b, err := os.ReadFile(shot); err == nil && os.WriteFile(keep, b, 0o644) == nil {
			t.Logf("the screenshot is kept at %s", keep)
		}
	}
}

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// countColor counts the pixels within a small distance of c (antialiasing
// and colour management move a few units).
func countColor(img image.Image, c color.RGBA) int {
	n := 0
	b := img.Bounds()
	near := func(x, y uint32) bool { d := int(x>>8) - int(y); return d >= -6 && d <= 6 }
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r, uint32(c.R)) && near(g, uint32(c.G)) && near(bl, uint32(c.B)) {
				n++
			}
		}
	}
	return n
}
