//go:build unix

package gateway

import (
	"bytes"
	"net"
	"syscall"
)

// headWaits tells whether c's socket holds a complete request head not yet read: a
// connection accepted moments ago whose request has arrived must not be the one to give way.
func headWaits(c net.Conn) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	var buf [4096]byte
	n := 0
	// Control, not Read: Read would wait for the server's own Read on the socket to end
	_ = raw.Control(func(fd uintptr) {
		n, _, _ = syscall.Recvfrom(int(fd), buf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
	})
	return n > 0 && bytes.Contains(buf[:n], headEnd)
}
