// Package tiffpalette fuzzes the TIFF decoder of golang.org/x/image/tiff and
// reads every pixel of the decoded image, as an image service that makes
// thumbnails of uploaded TIFFs would. The seed is a small paletted TIFF
// written by tiff.Encode.
//
// Module golang.org/x/image v0.0.0-20210216034530-4410531fe030 (the bug
// dates from the package's start); fixed in v0.18.0 (commit 3bbf4a6 "tiff:
// Validate palette indices when parsing palette-color images").
// Upstream: https://github.com/golang/go/issues/67624, CVE-2024-24792.
// Bug: Decode accepts a palette-color image whose pixels index past the end
// of its color map and returns an *image.Paletted that fails when the pixel
// is read: with a ColorMap entry of fewer colors than the pixels use, "index
// out of range" in image.(*Paletted).At; with no ColorMap entry, an empty
// palette, for which At returns a nil color and the caller's RGBA call
// dereferences nil (the signature wants this package's fuzz function, the
// only code that uses the color, as the frame that faulted). The fix
// rejects both ("invalid color index").
//
// Signature: (?s)\(\*Paletted\)\.At|nil pointer dereference.*?panic\.go:\d+[^\n]*\n\s*\S*tiffpalette\.FuzzDecode
package tiffpalette
