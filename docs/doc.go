// Package docs holds seam's documentation. Its tests regenerate every
// example in the documents from the code (go test ./docs -update rewrites
// them), so a document cannot drift from what seam does.
package docs
