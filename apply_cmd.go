package main

import (
	"fmt"
	"io"
)

// applyMain is replaced by the real implementation of the apply subcommand.
func applyMain(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "sandtable apply: not available yet")
	return 2
}
