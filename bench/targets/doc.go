// Package targets holds nothing itself: each subdirectory is one planted-bug
// fuzz target of the fuzzbox benchmark (go run ./bench from the repository
// root). This is a separate module so that the fuzzbox module's ./... never
// includes the targets and their deliberately buggy code.
package targets
