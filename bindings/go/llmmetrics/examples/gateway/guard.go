package gateway

import (
	"bytes"
	"container/list"
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits are the protections every HTTP endpoint of the project serves with, so that a
// client holding many connections, or sending its request a byte at a time, cannot keep a
// scraper or a load balancer from being answered (doc/exporting.md, "Slow and idle
// clients"). The policy is the one of the C endpoints (tools/http/admit.h), with the same
// defaults: a request whose head has arrived is always served, and while it is answered
// its connection holds no place under PerAddress; past PerAddress or Total, the connection
// waiting longest for its request gives way to the new one, which is refused only when
// none can.
type Limits struct {
	// PerAddress is how many connections one client address may hold waiting for a
	// request at once (idle or sending it); a connection being answered does not count,
	// so a load balancer may have any number of requests in flight.
	PerAddress int
	// Total is how many connections may be open at once in all.
	Total int
	// Idle closes a keep-alive connection that sends nothing for this long.
	Idle time.Duration
	// Request is the deadline for a whole request (header and body) to arrive, counted
	// from the connection's start or, on a kept-alive connection, from the next request's
	// first byte. A client that trickles a header byte every few seconds is never idle;
	// this closes it. Responses have no deadline: a streamed answer may last minutes.
	Request time.Duration
}

// DefaultLimits are the values doc/exporting.md documents: 16 connections waiting per
// address, 4096 in all, a 10 s idle timeout and a 10 s request deadline.
func DefaultLimits() Limits {
	return Limits{PerAddress: 16, Total: 4096, Idle: 10 * time.Second, Request: 10 * time.Second}
}

type connKey struct{}

// Server is an http.Server for h with l's timeouts; serve it on l.Listener(ln), which it
// tells when a connection's request is being answered and when it waits again.
func (l Limits) Server(h http.Handler) *http.Server {
	return &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if c, ok := r.Context().Value(connKey{}).(*limitedConn); ok {
				c.ll.served(c)
				defer c.ll.waiting(c)
			}
			h.ServeHTTP(w, r)
		}),
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
		ReadHeaderTimeout: l.Request, ReadTimeout: l.Request, IdleTimeout: l.Idle,
	}
}

// Listener wraps ln so that it admits connections by l's policy.
func (l Limits) Listener(ln net.Listener) net.Listener {
	return &limitListener{Listener: ln, l: l, per: map[string]int{}}
}

// Where a connection stands.
const (
	stateWaiting   = iota // for a request: counted under PerAddress
	stateAnswering        // its request is being answered
	stateGone             // gave way or closed: no longer counted
)

type limitListener struct {
	net.Listener
	l        Limits
	mu       sync.Mutex
	total    int            // connections open, not gone
	per      map[string]int // connections waiting, by address
	wait     list.List      // the connections waiting, longest first
	accepted uint64         // connections accepted, kept or not (for the tests)
	evicted  uint64         // connections that gave way (for the tests)
}

func (ll *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := ll.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := c.RemoteAddr().String()
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		lc := &limitedConn{Conn: c, ll: ll, host: host}
		if ll.admit(lc) {
			return lc, nil
		}
		_ = c.Close()
	}
}

// admit counts c in, after the connection waiting longest past a limit has given way; false
// when none can.
func (ll *limitListener) admit(c *limitedConn) bool {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	ll.accepted++
	var v *limitedConn
	if ll.per[c.host] >= ll.l.PerAddress {
		if v = ll.oldest(c.host, nil); v == nil {
			return false
		}
	} else if ll.total >= ll.l.Total {
		if v = ll.oldest("", nil); v == nil {
			return false
		}
	}
	if v != nil {
		ll.evict(v)
	}
	ll.total++
	ll.enqueue(c)
	return true
}

// oldest is the connection waiting longest (from host, unless "") that can give way: not
// keep, and none whose request head has arrived.
func (ll *limitListener) oldest(host string, keep *limitedConn) *limitedConn {
	for e := ll.wait.Front(); e != nil; e = e.Next() {
		c := e.Value.(*limitedConn)
		if c != keep && (host == "" || c.host == host) && !c.headSeen && !headWaits(c.Conn) {
			return c
		}
	}
	return nil
}

func (ll *limitListener) enqueue(c *limitedConn) {
	c.state = stateWaiting
	c.elem = ll.wait.PushBack(c)
	ll.per[c.host]++
}

func (ll *limitListener) dequeue(c *limitedConn) {
	ll.wait.Remove(c.elem)
	c.elem = nil
	if ll.per[c.host]--; ll.per[c.host] == 0 {
		delete(ll.per, c.host)
	}
}

// evict lets waiting connection c give way: closed, its server sees the end.
func (ll *limitListener) evict(c *limitedConn) {
	ll.dequeue(c)
	ll.total--
	ll.evicted++
	c.state = stateGone
	_ = c.Conn.Close()
}

func (ll *limitListener) served(c *limitedConn) {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	if c.state == stateWaiting {
		ll.dequeue(c)
		c.state = stateAnswering
	}
}

// waiting: c's response is done; past its address's limit, the other connection of that
// address waiting longest gives way.
func (ll *limitListener) waiting(c *limitedConn) {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	if c.state != stateAnswering {
		return
	}
	c.headSeen, c.tail = false, nil
	ll.enqueue(c)
	if ll.per[c.host] > ll.l.PerAddress {
		if v := ll.oldest(c.host, c); v != nil {
			ll.evict(v)
		}
	}
}

func (ll *limitListener) release(c *limitedConn) {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	switch c.state {
	case stateWaiting:
		ll.dequeue(c)
		ll.total--
	case stateAnswering:
		ll.total--
	}
	c.state = stateGone
}

// limitedConn notes when its request head has been read, and gives its place back once,
// when it is closed.
type limitedConn struct {
	net.Conn
	ll       *limitListener
	host     string
	once     sync.Once
	elem     *list.Element // in ll.wait while it waits; the fields below are under ll.mu
	state    int
	headSeen bool   // the end of a request head ("\r\n\r\n") has been read
	tail     []byte // the last bytes read, up to 3, to find it across reads
}

var headEnd = []byte("\r\n\r\n")

func (c *limitedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.ll.mu.Lock()
		if !c.headSeen {
			seen := append(c.tail, p[:min(n, 3)]...)
			c.headSeen = bytes.Contains(seen, headEnd) || bytes.Contains(p[:n], headEnd)
			if n >= 3 {
				c.tail = append(c.tail[:0], p[n-3:n]...)
			} else if c.tail = seen; len(seen) > 3 {
				c.tail = seen[len(seen)-3:]
			}
		}
		c.ll.mu.Unlock()
	}
	return n, err
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.ll.release(c) })
	return err
}
