package report

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestScreenshot renders the gpt2_tiny/tensor-only page in headless
// Chromium and checks that the picture is a real page: not blank, many
// colours, the red of the symbolic-input headline present. It runs only
// where Chromium is installed (scripts/screenshot-report.sh makes the
// image the docs show); CI without a browser skips it.
func TestScreenshot(t *testing.T) {
	browser := chromiumOrSkip(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, writeHTML(t, build(t, "gpt2_tiny", "tensor-only"), HTMLOptions{}), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	headless(t, browser, "--hide-scrollbars", "--window-size=1400,1800", "--screenshot="+shot, "file://"+page)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	st := pixelStats(img)
	t.Logf("%v: %d colours, %.1f%% not white, %d red pixels", img.Bounds().Size(), st.colours, 100*st.inked, st.red)
	if b := img.Bounds(); b.Dx() < 1000 || b.Dy() < 1000 {
		t.Errorf("screenshot is %v, want the 1400x1800 window", b.Size())
	}
	if st.colours < 64 {
		t.Errorf("%d distinct colours: the page looks blank or unstyled", st.colours)
	}
	if st.inked < 0.05 {
		t.Errorf("only %.1f%% of the pixels are not white", 100*st.inked)
	}
	// The headline box, its table and the symbolic edges are red.
	if st.red < 2000 {
		t.Errorf("%d red pixels: the symbolic inputs do not stand out", st.red)
	}
}

// chromiumOrSkip finds Chromium, or skips the test: CI and a fresh clone
// have no browser, and -short skips browsers everywhere.
func chromiumOrSkip(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a browser")
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH (apt-get install -y chromium)")
	return ""
}

// headless runs Chromium on a page with a fresh profile and no network
// services, and returns what it printed.
func headless(t *testing.T, browser string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--user-data-dir=" + filepath.Join(t.TempDir(), "profile")}
	out, err := exec.CommandContext(ctx, browser, append(base, args...)...).Output()
	if err != nil {
		t.Fatalf("%s: %v", browser, err)
	}
	return out
}

// TestBrowserExplainsNode opens the page of a 1,341-node graph in Chromium
// at #node=NAME and reads the DOM the script left: the toolbar shown, the
// node's box marked and brought into view, and the panel saying why the
// node is left to the parent. scripts/check-report-browser.sh clicks,
// zooms and pans as well; this runs with go test wherever Chromium is.
func TestBrowserExplainsNode(t *testing.T) {
	browser := chromiumOrSkip(t)
	r := deepReport(t, "matmul-only")
	page := filepath.Join(t.TempDir(), "gpt2_l24.html")
	if err := os.WriteFile(page, writeHTML(t, r, HTMLOptions{}), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(headless(t, browser, "--window-size=1400,1000", "--dump-dom", "file://"+page+"#node=native_layer_norm_20"))
	panel := regexp.MustCompile(`<aside class="why"[^>]*>(.*?)</aside>`).FindStringSubmatch(dom)
	switch {
	case panel == nil:
		t.Fatalf("no panel in the DOM Chromium left:\n%.3000s", dom)
	case strings.Contains(panel[0], "hidden"):
		t.Errorf("the panel is still hidden: %s", panel[0])
	case !strings.Contains(panel[1], "native_layer_norm_20") || !strings.Contains(panel[1], "Left to the parent program: op not included") ||
		!strings.Contains(panel[1], "ops.include"):
		t.Errorf("the panel does not say why native_layer_norm_20 is not delegated: %s", panel[1])
	}
	if !regexp.MustCompile(`<g class="box parent hit"[^>]*><title>native_layer_norm_20 = `).MatchString(dom) {
		t.Errorf("the box of native_layer_norm_20 is not marked")
	}
	if regexp.MustCompile(`<div class="tools" hidden`).MatchString(dom) {
		t.Errorf("the toolbar is still hidden: the script did not run")
	}
	vb := regexp.MustCompile(`<svg [^>]*class="graph"[^>]*viewBox="([-\d. ]+)"`).FindStringSubmatch(dom)
	if vb == nil {
		t.Fatal("no picture")
	}
	var x, y, w, h float64
	fmt.Sscan(vb[1], &x, &y, &w, &h)
	if y < 1000 || w > 2000 {
		t.Errorf("the view %s is not on native_layer_norm_20, deep in the graph", vb[1])
	}
}

type stats struct {
	colours int
	inked   float64 // share of pixels that are not (near) white
	red     int     // pixels close to the symbolic red
}

func pixelStats(img image.Image) stats {
	b := img.Bounds()
	seen := map[uint32]bool{}
	var inked, total, red int
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			seen[r<<16|g<<8|bl] = true
			total++
			if r < 245 || g < 245 || bl < 245 {
				inked++
			}
			if r > 180 && g < 90 && bl < 90 {
				red++
			}
		}
	}
	return stats{colours: len(seen), inked: float64(inked) / float64(total), red: red}
}
