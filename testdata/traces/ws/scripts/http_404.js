const http = require('http');
const WebSocket = require('ws');

// the REST API; the websocket endpoint lives on another service
const api = http.createServer((req, res) => {
  res.writeHead(404, { 'Content-Type': 'application/json' });
  res.end('{"error":"not found"}');
});

api.listen(0, () => {
  const ws = new WebSocket(`ws://127.0.0.1:${api.address().port}/socket`);
  ws.on('open', () => console.log('open'));
});
