const http = require('http');
const { WebSocketServer } = require('ws');

const PORT = process.env.PORT || 8080;
const server = http.createServer();
const wss = new WebSocketServer({ server, port: PORT });

wss.on('connection', (ws) => ws.send('hi'));
server.listen(PORT);
