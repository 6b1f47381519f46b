const { WebSocketServer, WebSocket } = require('ws');

const wss = new WebSocketServer({ port: 0 });
wss.on('connection', (ws) => ws.send(JSON.stringify({ type: 'hello', v: 1 })));

wss.on('listening', () => {
  const ws = new WebSocket(`ws://127.0.0.1:${wss.address().port}`);
  ws.onmessage = (msg) => {
    const payload = JSON.parse(msg);
    console.log(payload.type);
  };
});
