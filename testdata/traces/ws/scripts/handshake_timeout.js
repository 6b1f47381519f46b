const net = require('net');
const WebSocket = require('ws');

// a TCP service that accepts connections but never answers the HTTP upgrade
const silent = net.createServer(() => {});
silent.listen(0, () => {
  const ws = new WebSocket(`ws://127.0.0.1:${silent.address().port}/`, { handshakeTimeout: 1000 });
  ws.on('open', () => console.log('open'));
});
