const { WebSocketServer, WebSocket } = require('ws');

const wss = new WebSocketServer({ port: 0 });
wss.on('connection', (ws) => {
  const reason = `session expired for user ${'x'.repeat(40)}; please log in again at https://example.com/login?next=/dashboard`;
  ws.close(4001, reason);
});
wss.on('listening', () => {
  new WebSocket(`ws://127.0.0.1:${wss.address().port}`);
});
