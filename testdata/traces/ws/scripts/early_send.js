const { WebSocketServer, WebSocket } = require('ws');

const wss = new WebSocketServer({ port: 0 }, () => {
  const { port } = wss.address();
  const ws = new WebSocket(`ws://127.0.0.1:${port}`);
  ws.send('hello');
});
