// Package hostile builds the inputs an attacker, or a broken tool, hands
// seam: archives too deep, too large or too compressed, records whose bytes
// do not match their checksums, files that never end, contracts recorded
// to mislead, names that are not text, and valid programs large enough to
// find quadratic work. Cases lists them with what seam must say about
// each; the command line's tests run every one under a memory and a time
// cap, and `go run ./internal/hostile/gen DIR` writes them out to try by
// hand.
package hostile
