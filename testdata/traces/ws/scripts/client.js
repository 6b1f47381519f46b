const WebSocket = require('ws');

const ws = new WebSocket('ws://localhost:59999/feed');

ws.on('open', () => {
  ws.send(JSON.stringify({ type: 'subscribe', channel: 'prices' }));
});

ws.on('message', (data) => {
  console.log('received: %s', data);
});
