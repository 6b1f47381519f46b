const WebSocket = require('ws');

const ws = new WebSocket('ws://127.0.0.1:8080/rpc', 'json rpc');
ws.on('open', () => console.log('open'));
