package main

import (
	"fmt"
	"io"
)

// renderMain is replaced by the real implementation of the render subcommand.
func renderMain(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "sandtable render: not available yet")
	return 2
}
