const http = require('http');
const { WebSocketServer } = require('ws');

const app = (req, res) => {
  res.end('ok');
};

const wss = new WebSocketServer({ server: app });
http.createServer(app).listen(0);
