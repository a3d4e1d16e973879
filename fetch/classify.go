package fetch

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
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
	}
	return ReasonNetwork
}
