package ir

import "io"

// DecodeProgramFromChunks is DecodeProgramFrom reading chunk bytes at a
// time, so that tests put the window's edge everywhere.
func DecodeProgramFromChunks(r io.Reader, chunk int) (*Program, error) {
	return decodeProgramFrom(r, chunk)
}
