//go:build !unix

package render

import (
	"testing"
	"time"
)

// ReportCPU reports nothing where getrusage is missing.
func ReportCPU(b *testing.B, start time.Duration) {}

// CPUTime is 0 where getrusage is missing.
func CPUTime() time.Duration { return 0 }
