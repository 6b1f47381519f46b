"""Local misbehaving HTTP server used to provoke real client failures (loopback only).
Usage: python3 testserver.py [port]   (default 8000)"""
import gzip, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def _send(self, code, body=b"", headers=()):
        self.send_response(code)
        for k, v in headers: self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def do_GET(self): self.route()
    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n: self.rfile.read(n)
        self.route()
    def do_PUT(self): self.do_POST()
    def do_DELETE(self): self.route()
    def route(self):
        p = self.path.split("?")[0]
        if p.startswith("/slow"):
            time.sleep(30); return self._send(200, b"late")
        if p.startswith("/loop"):
            return self._send(302, b"", [("Location", "/loop")])
        if p.startswith("/html") or p.startswith("/api/v1/login"):
            return self._send(200, b"<!DOCTYPE html><html><body><h1>Please sign in</h1></body></html>", [("Content-Type", "text/html")])
        if p.startswith("/empty"):
            self.send_response(204); self.end_headers(); return
        if p.startswith("/error"):
            return self._send(500, b"Internal Server Error", [("Content-Type", "text/plain")])
        if p.startswith("/badgzip"):
            return self._send(200, b"this is not gzip at all", [("Content-Encoding", "gzip"), ("Content-Type", "application/json")])
        if p.startswith("/truncated"):
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("Content-Type", "text/csv")
            self.end_headers()
            self.wfile.write(b"10\r\nid,name,amount\n12\r\n")
            self.wfile.flush()
            self.close_connection = True
            return
        if p.startswith("/short"):
            self.send_response(200)
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b"x" * 1000)
            self.close_connection = True
            return
        if p.startswith("/json"):
            return self._send(200, b'{"ok": true, "items": [1, 2, 3]}', [("Content-Type", "application/json")])
        if p.startswith("/bigstream"):
            return self._send(200, b"line\n" * 5000, [("Content-Type", "text/plain")])
        return self._send(404, b"Not Found", [("Content-Type", "text/plain")])

if __name__ == "__main__":
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
    ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
