const WebSocket = require('ws');

const host = process.env.FEED_HOST || 'localhost:8080';
const ws = new WebSocket(host);
ws.on('open', () => console.log('connected'));
