package storage

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"sandtable/internal/etcdtest"
)

// The package's tests share one etcd server (starting and stopping one
// takes about two seconds), each store under a prefix of its own; tests of
// faults start their own cluster.
var (
	sharedOnce    sync.Once
	sharedCluster *etcdtest.Cluster
	sharedTB      = &processTB{}
	prefixes      atomic.Int64
)

// sharedEtcd starts the shared server on first use.
func sharedEtcd() *etcdtest.Cluster {
	sharedOnce.Do(func() { sharedCluster = etcdtest.Start(sharedTB) })
	return sharedCluster
}

func TestMain(m *testing.M) {
	code := m.Run()
	sharedTB.cleanup()
	os.Exit(code)
}

// processTB is the testing.TB of what lives as long as the test process:
// the methods etcdtest calls, with cleanups run by TestMain. The embedded
// TB is nil and never called.
type processTB struct {
	testing.TB
	mu       sync.Mutex
	cleanups []func()
	dirs     []string
}

func (p *processTB) Helper() {}

func (p *processTB) TempDir() string {
	d, err := os.MkdirTemp("", "storage-etcd-")
	if err != nil {
		panic(err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dirs = append(p.dirs, d)
	return d
}

func (p *processTB) Cleanup(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cleanups = append(p.cleanups, f)
}

func (p *processTB) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

func (p *processTB) cleanup() {
	for i := len(p.cleanups) - 1; i >= 0; i-- {
		p.cleanups[i]()
	}
	for _, d := range p.dirs {
		os.RemoveAll(d)
	}
}
