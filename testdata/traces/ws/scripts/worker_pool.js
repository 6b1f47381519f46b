const { Worker } = require('worker_threads');
const { WebSocketServer } = require('ws');

const workers = [new Worker('process.on("message", () => {})', { eval: true })];
let next = 0;

const wss = new WebSocketServer({ port: 0 });
wss.on('connection', (ws) => {
  // hand the connection to a worker thread so the main loop stays free
  workers[next++ % workers.length].postMessage({ socket: ws });
});
wss.on('listening', () => {
  const WebSocket = require('ws');
  new WebSocket(`ws://127.0.0.1:${wss.address().port}`);
});
