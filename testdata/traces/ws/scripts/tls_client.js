const fs = require('fs');
const https = require('https');
const path = require('path');
const { WebSocketServer, WebSocket } = require('ws');

const server = https.createServer({
  cert: fs.readFileSync(path.join(__dirname, 'certs', 'cert.pem')),
  key: fs.readFileSync(path.join(__dirname, 'certs', 'key.pem')),
});
const wss = new WebSocketServer({ server });
wss.on('connection', (ws) => ws.send('secure hello'));

server.listen(0, () => {
  const ws = new WebSocket(`wss://localhost:${server.address().port}`);
  ws.on('message', (m) => console.log(m.toString()));
});
