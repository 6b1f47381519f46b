const { WebSocketServer, WebSocket } = require('ws');

// local dev server (plain ws), client config copied from production
const wss = new WebSocketServer({ port: 0 });
wss.on('listening', () => {
  const ws = new WebSocket(`wss://127.0.0.1:${wss.address().port}/live`);
  ws.on('open', () => console.log('connected'));
});
