package profreport

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"
)

var taskRect = regexp.MustCompile(`<rect class="task[ "]`)

// TestHTMLSelfContained: the page needs nothing from outside (docs/
// profiling.md: "a page with no external resources") and draws one
// rectangle per slice: session.json has 27 (11 host calls and ranges,
// 8 tasks on their streams and 8 on their engines) and one mark.
func TestHTMLSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := load(t, "session.json").WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	// The SVG namespace names, it does not fetch.
	page := strings.ReplaceAll(b.String(), `"http://www.w3.org/2000/svg"`, "")
	for _, external := range []string{"src=", "href=", "url(", "@import", "http:", "https:"} {
		if i := strings.Index(page, external); i >= 0 {
			t.Errorf("the page refers outside itself: %q", page[max(i-40, 0):min(i+60, len(page))])
		}
	}
	if n := len(taskRect.FindAllString(page, -1)); n != 27 {
		t.Errorf("%d task rectangles; want 27", n)
	}
	if n := strings.Count(page, `<circle class="mark"`); n != 1 {
		t.Errorf("%d marks; want 1", n)
	}
	for _, want := range []string{"<title>matmul: 200.000 µs at +0.411 ms</title>", `title="Stream 2">Stream 2</div>`, "15.9%", "max 8 at +0.140 ms, mean 4.37"} {
		if !strings.Contains(html.UnescapeString(page), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestHTMLLimit: past the limit the page draws the earliest slices and
// says how many it left out.
func TestHTMLLimit(t *testing.T) {
	r := load(t, "burst.json")
	tl := r.timeline(100)
	if tl.Shown != 100 || tl.Total != 2000 || len(tl.Rects) != 100 {
		t.Errorf("shown %d of %d, %d rectangles; want 100 of 2000", tl.Shown, tl.Total, len(tl.Rects))
	}
	for _, rect := range tl.Rects {
		if rect.X > tl.Width/2 {
			t.Errorf("a rectangle at x %v: not among the earliest slices", rect.X)
			break
		}
	}
}

// TestHTMLEscapes: names from the file are text, never markup.
func TestHTMLEscapes(t *testing.T) {
	f, err := Parse("x.json", []byte(`[{"name":"<script>alert(1)</script>","ph":"X","ts":1,"dur":1,"pid":10001,"tid":1,"args":{"Task Type":"AI_CORE"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Build(f)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Analyze(tr).WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "<script>alert") || !strings.Contains(b.String(), "&lt;script&gt;alert(1)") {
		t.Error("a kernel's name reached the page unescaped")
	}
}
