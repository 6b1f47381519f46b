const { WebSocketServer, WebSocket } = require('ws');

const wss = new WebSocketServer({ port: 0 });

wss.on('connection', (ws) => {
  ws.on('error', console.error);
  ws.on('message', (data) => {
    const msg = JSON.parse(data);
    if (msg.type === 'chat') {
      wss.clients.forEach((c) => c.send(JSON.stringify(msg)));
    }
  });
});

// a monitoring probe that sends a plain-text keepalive
wss.on('listening', () => {
  const probe = new WebSocket(`ws://127.0.0.1:${wss.address().port}`);
  probe.on('open', () => probe.send('ping'));
});
