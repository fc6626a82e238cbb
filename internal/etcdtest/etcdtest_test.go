package etcdtest

import (
	"context"
	"testing"
	"time"

	"sandtable/internal/testkit"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// TestClusterSurvivesAMember starts three members, writes, kills the
// leader and writes again: the majority elects a leader and serves on.
func TestClusterSurvivesAMember(t *testing.T) {
	testkit.SkipUnlessLong(t, "a three-member cluster")
	c := StartCluster(t, 3)
	cli, err := clientv3.New(clientv3.Config{Endpoints: c.Endpoints(), DialTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := cli.Put(ctx, "k", "1"); err != nil {
		t.Fatal(err)
	}
	lead := c.Leader()
	if lead < 0 {
		t.Fatal("no leader after a write")
	}
	c.Kill(lead)
	// Requests in flight when the leader dies time out; the others elect a
	// leader and serve again.
	for {
		_, err := cli.Put(ctx, "k", "2")
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatal(err)
		}
	}
	if l := c.Leader(); l < 0 || l == lead {
		t.Fatalf("leader after the leader %d stopped: %d", lead, l)
	}
	r, err := cli.Get(ctx, "k")
	if err != nil || len(r.Kvs) != 1 || string(r.Kvs[0].Value) != "2" {
		t.Fatalf("get after a member stopped: %v %v", r, err)
	}
}

// TestStart starts one member and writes to it.
func TestStart(t *testing.T) {
	c := Start(t)
	cli, err := clientv3.New(clientv3.Config{Endpoints: c.Endpoints(), DialTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := cli.Put(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
}
