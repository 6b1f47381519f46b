package server

const Port = 8080

type Server struct {
	addr string
}

type Handler interface {
	Serve() error
}

func New(addr string) *Server {
	return &Server{addr: addr}
}

func (s *Server) Start() error {
	return nil
}
