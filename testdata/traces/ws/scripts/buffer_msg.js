const { WebSocketServer, WebSocket } = require('ws');

const wss = new WebSocketServer({ port: 0 });
wss.on('connection', (ws) => {
  ws.on('message', (data) => {
    if (data.startsWith('/')) {
      console.log('command', data);
    }
  });
});
wss.on('listening', () => {
  const c = new WebSocket(`ws://127.0.0.1:${wss.address().port}`);
  c.on('open', () => c.send('/join #general'));
});
