//go:build tools

package seam

import (
	_ "github.com/google/go-cmp/cmp"
	_ "golang.org/x/sys/cpu"
	_ "pgregory.net/rapid"
)
