import WebSocket, { WebSocketServer } from 'ws';

const wss = new WebSocketServer({ port: 0 });
wss.on('connection', (ws) => {
  ws.send('tick 1');
  ws.send('tick 2');
});

await new Promise((resolve) => wss.on('listening', resolve));
const ws = new WebSocket(`ws://127.0.0.1:${wss.address().port}`);
await new Promise((resolve) => ws.once('open', resolve));

for await (const msg of ws) {
  console.log('got', msg.toString());
}
