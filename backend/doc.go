// Package backend describes backends (delegates) as declared contracts: the
// ops a backend runs, the dtypes and shapes it accepts, and, per kind of
// graph input (placeholder), what it accepts at run time. A profile is
// written as a small JSON or YAML file by a backend author, or in Go for
// the built-in profiles (`seam backends` lists them).
//
// The partitioner asks a profile which nodes it supports and why not the
// others; lowering asks it what each lowered module's placeholders may be;
// the runtime checks every delegate call against it.
package backend
