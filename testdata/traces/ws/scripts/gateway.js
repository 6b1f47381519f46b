const { WebSocketServer } = require('ws');

// PORT comes from the deployment manifest, e.g. PORT="8080/tcp"
const port = process.env.PORT || '8080/tcp';
const wss = new WebSocketServer({ port });

wss.on('connection', (ws) => {
  ws.on('message', (m) => ws.send(m));
});
