//go:build unix

package sandboard

import (
	"syscall"
	"testing"
	"time"
)

// ReportCPU reports the process's CPU time (user and system, all threads,
// the garbage collector's included) per benchmark operation as
// "cpu-ms/op": on a machine shared with other work the wall time per
// operation (ns/op) also counts the time spent waiting for a core.
func ReportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(CPUTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
}

// CPUTime is the process's CPU time so far.
func CPUTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
