const { WebSocketServer } = require('ws');

const chat = new WebSocketServer({ port: 8080 });
chat.on('connection', (ws) => ws.send('welcome to chat'));

const notifications = new WebSocketServer({ port: 8080 });
notifications.on('connection', (ws) => ws.send('notifications ready'));
