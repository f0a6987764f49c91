// Package pt2 reads and writes PT2 archives, the zip files torch.export.save
// writes (PyTorch 2.9 to 2.11): programs in models/<name>.json, weights and
// constants beside them with their payload configs, and the version records.
//
// Reading is lazy: Open parses the programs and payload configs but leaves
// every weight in the archive, so inspecting a multi-gigabyte model reads a
// few megabytes. Writing reproduces PyTorch's layout (stored entries, each
// record's data 64-byte aligned, the same records in the same order), so
// torch.export.load reads what seam writes.
//
// The layout seam adds for lowered programs: each lowered module is a
// program of its own in models/<module>.json with its own weights config,
// its delegate record (backend name, compile options and the contract it
// was lowered under) is data/delegates/<module>.json, and what the backend
// compiled from it at lowering time, if anything, data/delegates/<module>.bin.
// Archive.Lowered reads an archive as an ir.Lowered, FromLowered makes the
// archive of one.
package pt2
