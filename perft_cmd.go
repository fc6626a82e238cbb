package main

import (
	"fmt"
	"io"
)

// perftMain is replaced by the real implementation of the perft subcommand.
func perftMain(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "sandtable perft: not available yet")
	return 2
}
