const http = require('http');
const { WebSocketServer, WebSocket } = require('ws');

const server = http.createServer();
const wss = new WebSocketServer({ server });

server.on('upgrade', (request, socket, head) => {
  wss.handleUpgrade(request, socket, head, (ws) => {
    wss.emit('connection', ws, request);
  });
});

server.listen(0, () => {
  new WebSocket(`ws://127.0.0.1:${server.address().port}`);
});
