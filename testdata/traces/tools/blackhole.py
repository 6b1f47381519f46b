"""Listen on 127.0.0.1:PORT with backlog 0, never accept, and fill the accept queue so that
further connects hang (SYNs dropped) -> client-side connect timeout. Loopback only."""
import socket, sys, time
port = int(sys.argv[1]) if len(sys.argv) > 1 else 8089
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port)); s.listen(0)
fillers = []
for _ in range(4):
    c = socket.socket(); c.setblocking(False)
    try: c.connect(("127.0.0.1", port))
    except BlockingIOError: pass
    fillers.append(c)
time.sleep(3600)
