package chart

import "errors"

// ErrFormat reports a file format chart cannot write; only svg, png and pdf
// are supported.
var ErrFormat = errors.New("chart: unsupported format (want .svg, .png or .pdf)")

// ErrNoData reports a figure without a series that has a drawable point.
var ErrNoData = errors.New("chart: nothing to plot")

// ErrLower reports a name ParseLower does not know.
var ErrLower = errors.New("chart: unknown lower panel")
