//go:build !unix

package gateway

import "net"

// headWaits cannot look into a socket here: the request head counts once read.
func headWaits(c net.Conn) bool { return false }
