package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// maxPositionBytes bounds a SandTable position file: a full board with every
// comment is about 5 KB, so 1 MiB is generous and keeps /dev/zero or a wrong
// file from eating memory.
const maxPositionBytes = 1 << 20

// utf8BOM is the UTF-8 byte-order mark some editors write at the start of
// a text file.
const utf8BOM = "\uFEFF"

// readPositionFile reads a position file ("-" for standard input) of at
// most maxPositionBytes, without a leading UTF-8 byte-order mark (an
// invisible character that Windows editors add; the SandTable reader would
// see it as part of the header line). Errors name the file with echoArg.
func readPositionFile(name string) ([]byte, error) {
	return readInputFile(name, maxPositionBytes, "1 MiB: not a position file")
}

// readInputFile reads the file name ("-" for standard input) of at most
// max bytes, without a leading UTF-8 byte-order mark. A larger one is an
// error naming the file (with echoArg) and saying "larger than " + tooLarge.
func readInputFile(name string, max int, tooLarge string) ([]byte, error) {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > max {
		what := echoArg(name)
		if name == "-" {
			what = "standard input"
		}
		return nil, fmt.Errorf("%s is larger than %s", what, tooLarge)
	}
	return bytes.TrimPrefix(data, []byte(utf8BOM)), nil
}
