package main

import (
	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/irtext"
)

// printer prints programs with expressions as print_readable() shows them.
func printer() *irtext.Printer { return &irtext.Printer{} }

func inspectOptions() inspect.Options { return inspect.Options{Printer: printer()} }
