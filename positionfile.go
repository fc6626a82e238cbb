package main

import (
	"fmt"
	"io"
	"os"
)

// maxPositionBytes bounds a SandTable position file: a full board with every
// comment is about 5 KB, so 1 MiB is generous and keeps /dev/zero or a wrong
// file from eating memory.
const maxPositionBytes = 1 << 20

// readPositionFile reads a position file ("-" for standard input) of at
// most maxPositionBytes. Errors name the file with echoArg.
func readPositionFile(name string) ([]byte, error) {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxPositionBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxPositionBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes: not a position file", echoArg(name), maxPositionBytes)
	}
	return data, nil
}
