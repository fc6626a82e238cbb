// Package etcdtest runs real etcd servers for tests, in-process, on
// 127.0.0.1: one member (Start) or a cluster (StartCluster), each on free
// loopback ports, with its data in a test's temporary directory and its
// election timeouts raised so that a busy 2-core machine does not make the
// members lose their leader. Everything is stopped by the test's cleanup.
package etcdtest

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"golang.org/x/crypto/bcrypt"
)

// Member is one running etcd server.
type Member struct {
	Name string
	// ClientURL is where clients connect ("http://127.0.0.1:PORT").
	ClientURL string
	cfg       *embed.Config
	etcd      *embed.Etcd
}

// Cluster is a running set of members.
type Cluster struct {
	Members []*Member
	t       testing.TB
}

// Endpoints are the client URLs of every member.
func (c *Cluster) Endpoints() []string {
	var eps []string
	for _, m := range c.Members {
		eps = append(eps, m.ClientURL)
	}
	return eps
}

// Start runs a one-member cluster.
func Start(t testing.TB) *Cluster { return StartCluster(t, 1) }

// StartCluster runs an n-member cluster and waits until it serves (at most
// a minute).
func StartCluster(t testing.TB, n int) *Cluster {
	t.Helper()
	c := &Cluster{t: t}
	var initial []string
	for i := 0; i < n; i++ {
		m := &Member{Name: fmt.Sprintf("m%d", i)}
		cu, pu := freeURL(t), freeURL(t)
		m.ClientURL = cu.String()
		cfg := embed.NewConfig()
		cfg.Name = m.Name
		cfg.Dir = t.TempDir()
		cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{cu}, []url.URL{cu}
		cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{pu}, []url.URL{pu}
		cfg.TickMs, cfg.ElectionMs = 200, 4000 // a busy 2-core machine
		// Passwords are hashed at bcrypt's lowest cost: at etcd's default one
		// hash takes seconds under -race on a busy machine, longer than a
		// client's dial timeout, which bounds its authentication.
		cfg.BcryptCost = uint(bcrypt.MinCost)
		cfg.LogLevel = "error"
		cfg.InitialClusterToken = "sandtable-test"
		m.cfg = cfg
		initial = append(initial, m.Name+"="+pu.String())
		c.Members = append(c.Members, m)
	}
	for _, m := range c.Members {
		m.cfg.InitialCluster = strings.Join(initial, ",")
	}
	// Members of a new cluster wait for each other: start them all, then
	// wait.
	for _, m := range c.Members {
		e, err := embed.StartEtcd(m.cfg)
		if err != nil {
			c.stop()
			t.Fatalf("etcdtest: start %s: %v", m.Name, err)
		}
		m.etcd = e
	}
	t.Cleanup(c.stop)
	for _, m := range c.Members {
		select {
		case <-m.etcd.Server.ReadyNotify():
		case err := <-m.etcd.Err():
			t.Fatalf("etcdtest: %s failed: %v", m.Name, err)
		case <-time.After(time.Minute):
			t.Fatalf("etcdtest: %s not ready after a minute", m.Name)
		}
	}
	return c
}

// Leader is the index of the member the running members know as their
// leader, or -1 while they know none (an election).
func (c *Cluster) Leader() int {
	for _, m := range c.Members {
		if m.etcd == nil {
			continue
		}
		lead := m.etcd.Server.Leader()
		for i, o := range c.Members {
			if o.etcd != nil && o.etcd.Server.MemberID() == lead {
				return i
			}
		}
	}
	return -1
}

// Stop stops member i (a fault: the others go on when they are a majority).
func (c *Cluster) Stop(i int) {
	if m := c.Members[i]; m.etcd != nil {
		m.etcd.Close()
		m.etcd = nil
	}
}

// Kill stops member i as a crash would: without handing its leadership
// over first (Stop does, as etcd does on a graceful shutdown), so that the
// others notice only when its heartbeats stop, and elect a new leader
// after an election timeout.
func (c *Cluster) Kill(i int) {
	if m := c.Members[i]; m.etcd != nil {
		m.etcd.Server.HardStop()
		m.etcd.Close()
		m.etcd = nil
	}
}

// Restart starts the stopped member i again, on its data and ports.
func (c *Cluster) Restart(i int) {
	c.t.Helper()
	m := c.Members[i]
	if m.etcd != nil {
		return
	}
	m.cfg.ClusterState = embed.ClusterStateFlagExisting
	e, err := embed.StartEtcd(m.cfg)
	if err != nil {
		c.t.Fatalf("etcdtest: restart %s: %v", m.Name, err)
	}
	m.etcd = e
	select {
	case <-e.Server.ReadyNotify():
	case <-time.After(time.Minute):
		c.t.Fatalf("etcdtest: %s not ready after a minute", m.Name)
	}
}

func (c *Cluster) stop() {
	for i := range c.Members {
		c.Stop(i)
	}
}

// freeURL is an http URL on a loopback port that was free a moment ago.
func freeURL(t testing.TB) url.URL {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("etcdtest: %v", err)
	}
	defer l.Close()
	return url.URL{Scheme: "http", Host: l.Addr().String()}
}
