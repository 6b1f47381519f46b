const { WebSocketServer, WebSocket } = require('ws');

const wss = new WebSocketServer({ port: 0 });

function broadcast(payload) {
  wss.clients.forEach((client) => {
    if (client.readyState === WebSocket.OPEN) client.send(payload);
  });
}

wss.on('connection', () => {
  broadcast({ type: 'join', users: wss.clients.size });
});
wss.on('listening', () => new WebSocket(`ws://127.0.0.1:${wss.address().port}`));
