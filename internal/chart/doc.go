// Package chart renders the project's PNG charts (reliability diagrams,
// rating histories, wait-time histograms) with go-chart behind a small API:
// describe the axes once in a Chart, then draw Lines, Scatter, TimeLines or
// a Histogram to any io.Writer.
package chart
