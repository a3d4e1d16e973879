package cluster

import (
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is an embedded NATS server with JetStream, listening on
// 127.0.0.1 only: the default of `seedcrawl cluster` on one machine.
type Server struct {
	ns *server.Server
}

// ServerOptions configure StartServer.
type ServerOptions struct {
	// Dir is the JetStream store directory (required): streams survive a
	// restart of the server on the same Dir.
	Dir string
	// Port is the client port; 0 picks a free one.
	Port int
}

// StartServer starts an embedded NATS server with JetStream on 127.0.0.1
// and waits until it accepts connections.
func StartServer(o ServerOptions) (*Server, error) {
	if o.Dir == "" {
		return nil, fmt.Errorf("%w: ServerOptions.Dir is required", ErrOptions)
	}
	port := o.Port
	if port == 0 {
		port = server.RANDOM_PORT
	}
	ns, err := server.NewServer(&server.Options{
		Host:      "127.0.0.1",
		Port:      port,
		JetStream: true,
		StoreDir:  o.Dir,
		NoSigs:    true,
		NoLog:     true,
		// A URL message is small; the limit guards against a bad client.
		MaxPayload: 1 << 20,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: configure NATS server in %s: %w", o.Dir, err)
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("cluster: NATS server in %s not ready after 10s", o.Dir)
	}
	return &Server{ns: ns}, nil
}

// URL returns the client URL, nats://127.0.0.1:PORT.
func (s *Server) URL() string { return s.ns.ClientURL() }

// Shutdown stops the server and waits until it is down.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}
