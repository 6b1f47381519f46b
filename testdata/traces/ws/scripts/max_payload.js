const { WebSocketServer, WebSocket } = require('ws');

const wss = new WebSocketServer({ port: 0, maxPayload: 64 * 1024 });
wss.on('connection', (ws) => {
  ws.on('message', (msg) => console.log('got %d bytes', msg.length));
});
wss.on('listening', () => {
  const c = new WebSocket(`ws://127.0.0.1:${wss.address().port}`);
  c.on('open', () => c.send(Buffer.alloc(1024 * 1024)));
  c.on('close', (code) => console.log('client closed', code));
});
