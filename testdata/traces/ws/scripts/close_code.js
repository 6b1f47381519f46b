const { WebSocketServer } = require('ws');

const wss = new WebSocketServer({ port: 0 });

wss.on('connection', (ws) => {
  ws.on('message', (data) => {
    if (data.toString() === 'bye') ws.close(1006, 'client said bye');
  });
});

wss.on('listening', () => {
  const WebSocket = require('ws');
  const c = new WebSocket(`ws://127.0.0.1:${wss.address().port}`);
  c.on('open', () => c.send('bye'));
});
