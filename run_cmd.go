package main

import (
	"fmt"
	"io"
)

// runMain connects the bot to Discord.
func runMain(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "sandtable run: not available yet")
	return 2
}
