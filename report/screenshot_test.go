package report

import (
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestScreenshot renders the gpt2_tiny/tensor-only page in headless
// Chromium and checks that the picture is a real page: not blank, many
// colours, the red of the symbolic-input headline present. It runs only
// where Chromium is installed (scripts/screenshot-report.sh makes the
// image the docs show); CI without a browser skips it.
func TestScreenshot(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("no chromium on PATH (apt-get install -y chromium)")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, writeHTML(t, build(t, "gpt2_tiny", "tensor-only"), HTMLOptions{}), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--hide-scrollbars", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--window-size=1400,1800", "--screenshot="+shot, "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", browser, err, out)
	}
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
