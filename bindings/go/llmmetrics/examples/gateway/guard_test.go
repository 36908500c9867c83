package gateway

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// dialFrom opens n connections to addr from the loopback address src (all of 127.0.0.0/8 is
// local) and sends each the first byte of a request.
func dialFrom(t *testing.T, src, addr string, n int) []net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	conns := make([]net.Conn, n)
	for i := range conns {
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("dial from %s: %v", src, err)
		}
		if _, err := c.Write([]byte("G")); err != nil {
			t.Fatalf("write from %s: %v", src, err)
		}
		conns[i] = c
	}
	return conns
}

// settle waits until the listener has accepted n connections (kept or closed); the time
// limit only ends a test that would otherwise hang.
func settle(t *testing.T, ll *limitListener, n uint64) {
	t.Helper()
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); {
		ll.mu.Lock()
		got := ll.accepted
		ll.mu.Unlock()
		if got >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the listener never accepted %d connections", n)
}

func held(ll *limitListener, host string) (per, total int) {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	return ll.per[host], ll.total
}

// Slow clients from other addresses hold at most their share of connections (the ones
// waiting longest give way to newer ones), a scrape from 127.0.0.1 is answered while they are
// open, and a request trickled a byte at a time is closed by the request deadline although
// the connection is never idle.
func TestSlowClientsCannotStarveAScrape(t *testing.T) {
	m, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	lim := Limits{PerAddress: 4, Total: 10, Idle: time.Hour, Request: 2 * time.Second}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ll := lim.Listener(ln).(*limitListener)
	srv := lim.Server(m)
	go func() { _ = srv.Serve(ll) }()
	defer srv.Close()
	addr := ln.Addr().String()

	slow := append(dialFrom(t, "127.0.0.2", addr, 6), dialFrom(t, "127.0.0.3", addr, 6)...)
	settle(t, ll, 12)
	if per, total := held(ll, "127.0.0.2"); per != 4 || total != 8 {
		t.Fatalf("127.0.0.2 holds %d connections (limit 4), %d in all (want 8)", per, total)
	}

	resp, err := (&http.Client{Timeout: 30 * time.Second}).Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatalf("scrape with 8 slow connections held: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "# TYPE") {
		t.Fatalf("scrape: %d %q", resp.StatusCode, body)
	}

	// the total: 8 held and the scrape's, which the client keeps alive; one more fits, and
	// for the two after it the connections waiting longest (127.0.0.2's) give way
	slow = append(slow, dialFrom(t, "127.0.0.4", addr, 3)...)
	settle(t, ll, 16)
	if per, total := held(ll, "127.0.0.4"); per != 3 || total != 10 {
		t.Fatalf("127.0.0.4 holds %d connections (want 3), %d in all (want 10, the total)", per, total)
	}
	if per, _ := held(ll, "127.0.0.2"); per != 2 {
		t.Fatalf("127.0.0.2 holds %d connections, want 2 (its two oldest gave way)", per)
	}

	// each held connection trickles a header byte every 100 ms (never idle) until the
	// server closes it: by the request deadline, after more than one byte
	done := make(chan int, len(slow))
	for _, c := range slow {
		go func(c net.Conn) {
			sent := 1
			for {
				_ = c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
				if _, err := c.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
					done <- sent
					return
				}
				if _, err := c.Write([]byte("E")); err != nil {
					done <- sent
					return
				}
				sent++
			}
		}(c)
	}
	late := 0
	for range slow {
		select {
		case sent := <-done:
			if sent > 1 { // held and trickling; else closed on acceptance, over a limit
				late++
			}
		case <-time.After(5 * time.Minute):
			t.Fatal("a trickling connection was never closed")
		}
	}
	if late != 9 {
		t.Fatalf("%d trickling connections closed by the request deadline, want the 9 held", late)
	}
	for _, c := range slow {
		c.Close()
	}
}

// A load balancer (one address) with 64 streaming requests in flight through the gateway
// (upstream: 20 events 50 ms apart),
// whose listener lets one address hold 16 connections waiting: every request is answered in
// full, since a connection being answered holds no place; the 32 idle connections the same
// address opened before them are the ones that give way.
func TestLoadBalancerStreamsAreAllAnswered(t *testing.T) {
	const streams, chunks = 64, 20
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // the request, as a model server reads it
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i < chunks; i++ {
			fmt.Fprintf(w, "data: {\"i\": %d}\n\n", i)
			w.(http.Flusher).Flush()
			time.Sleep(50 * time.Millisecond)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer up.Close()
	target, _ := url.Parse(up.URL)
	m, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	lim := DefaultLimits()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ll := lim.Listener(ln).(*limitListener)
	srv := lim.Server(m.Handler(target))
	go func() { _ = srv.Serve(ll) }()
	defer srv.Close()
	idle := dialFrom(t, "127.0.0.1", ln.Addr().String(), 32)
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	client := &http.Client{Timeout: 60 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: streams, MaxConnsPerHost: 0}}
	var wg sync.WaitGroup
	errs := make(chan error, streams)
	start := make(chan struct{})
	for i := 0; i < streams; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			// one new request every 5 ms, as users reach a load balancer: 64 overlap (each
			// streams for a second), and each connection sends its request as it opens
			time.Sleep(time.Duration(i) * 5 * time.Millisecond)
			resp, err := client.Get("http://" + ln.Addr().String() + "/v1/events")
			if err != nil {
				errs <- err
				return
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != 200 || strings.Count(string(body), "data: ") != chunks+1 {
				errs <- fmt.Errorf("status %d, %d events, %v", resp.StatusCode, strings.Count(string(body), "data: "), err)
			}
		}(i)
	}
	close(start)
	wg.Wait()
	close(errs)
	failed := 0
	for err := range errs {
		if failed++; failed == 1 {
			t.Errorf("a stream: %v", err)
		}
	}
	ok, _ := m.Requests()
	ll.mu.Lock()
	evicted := ll.evicted
	ll.mu.Unlock()
	if failed != 0 || ok != streams || evicted < 16 {
		t.Fatalf("%d of %d streams failed; the gateway counted %d answered; %d connections gave "+
			"way (want at least the 16 idle ones past the limit)", failed, streams, ok, evicted)
	}
}
