const WebSocket = require('ws');

const ws = new WebSocket('ws+unix:///var/run/app/ws.sock:/events');
ws.on('open', () => console.log('connected to local daemon'));
