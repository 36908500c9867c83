package gateway

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits are the protections every HTTP endpoint of the project serves with, so that a
// client holding many connections, or sending its request a byte at a time, cannot keep a
// scraper from being answered (doc/exporting.md, "Slow and idle clients"; the C endpoints
// use tools/http/guard.h with the same defaults).
type Limits struct {
	// PerAddress is how many connections one client address may hold at once; the
	// listener closes any more as soon as it accepts them.
	PerAddress int
	// Total is how many connections may be open at once in all; any more are closed as
	// soon as they are accepted.
	Total int
	// Idle closes a keep-alive connection that sends nothing for this long.
	Idle time.Duration
	// Request is the deadline for a whole request (header and body) to arrive, counted
	// from the connection's start or, on a kept-alive connection, from the next request's
	// first byte. A client that trickles a header byte every few seconds is never idle;
	// this closes it. Responses have no deadline: a streamed answer may last minutes.
	Request time.Duration
}

// DefaultLimits are the values doc/exporting.md documents: 16 connections per address,
// 4096 in all, a 10 s idle timeout and a 10 s request deadline.
func DefaultLimits() Limits {
	return Limits{PerAddress: 16, Total: 4096, Idle: 10 * time.Second, Request: 10 * time.Second}
}

// Server is an http.Server for h with l's timeouts; serve it on l.Listener(ln).
func (l Limits) Server(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: l.Request, ReadTimeout: l.Request,
		IdleTimeout: l.Idle}
}

// Listener wraps ln so that it hands out at most l.PerAddress connections from one address
// and l.Total in all at once.
func (l Limits) Listener(ln net.Listener) net.Listener {
	return &limitListener{Listener: ln, l: l, per: map[string]int{}}
}

type limitListener struct {
	net.Listener
	l        Limits
	mu       sync.Mutex
	total    int
	per      map[string]int
	accepted uint64 // connections accepted, kept or not (for the tests)
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
		if ll.admit(host) {
			return &limitedConn{Conn: c, ll: ll, host: host}, nil
		}
		_ = c.Close()
	}
}

func (ll *limitListener) admit(host string) bool {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	ll.accepted++
	if ll.total >= ll.l.Total || ll.per[host] >= ll.l.PerAddress {
		return false
	}
	ll.total++
	ll.per[host]++
	return true
}

func (ll *limitListener) release(host string) {
	ll.mu.Lock()
	defer ll.mu.Unlock()
	ll.total--
	if ll.per[host]--; ll.per[host] == 0 {
		delete(ll.per, host)
	}
}

// limitedConn gives its place back once, when it is closed.
type limitedConn struct {
	net.Conn
	ll   *limitListener
	host string
	once sync.Once
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.ll.release(c.host) })
	return err
}
