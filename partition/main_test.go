package partition

import (
	"flag"
	"os"
	"testing"
)

// TestMain raises rapid's default of 100 cases per property: the properties
// here are cheap (1000 cases take well under a second each) and a search
// algorithm's corner cases are rare. -rapid.checks still overrides it.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if !set {
		if err := flag.Set("rapid.checks", "1000"); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
