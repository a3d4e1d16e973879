package fetch

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/textproto"
	"strings"
	"syscall"
)

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// classifyNet names a network-level failure.
func classifyNet(err error) string {
	var dnsErr *net.DNSError
	var recErr tls.RecordHeaderError
	var alert tls.AlertError
	var certErr *tls.CertificateVerificationError
	var unkAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	switch {
	case errors.As(err, &dnsErr):
		return ReasonDNS
	case errors.Is(err, syscall.ECONNREFUSED):
		return ReasonRefused
	case errors.As(err, &recErr), errors.As(err, &alert), errors.As(err, &certErr),
		errors.As(err, &unkAuth), errors.As(err, &hostErr):
		return ReasonTLS
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, io.EOF), errors.Is(err, syscall.EPIPE):
		return ReasonConnLost
	case malformed(err):
		return ReasonBadResponse
	}
	return ReasonNetwork
}

// malformed reports whether err is net/http refusing a response that breaks
// HTTP/1.1's framing. net/http exports no type or sentinel for these (its
// chunked reader's errors are plain errors.New values in an internal
// package), so the messages it writes are matched; a message this misses
// stays ReasonNetwork, retried as before.
func malformed(err error) bool {
	var pe textproto.ProtocolError
	if errors.As(err, &pe) {
		return true // a malformed MIME header line
	}
	msg := err.Error()
	for _, s := range [...]string{
		"malformed HTTP",                   // status line, version, status code
		"server response headers exceeded", // Transport.MaxResponseHeaderBytes
		"malformed chunked encoding",
		"invalid byte in chunk length",
		"http chunk length too large",
		"empty hex number for chunk length",
		"header line too long", // a chunk header line
		"invalid Content-Length",
		"multiple Content-Length",
		"unsupported transfer encoding",
	} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
