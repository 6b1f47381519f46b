const WebSocket = require('ws');

const ws = new WebSocket('wss://echo.example.com');
ws.onopen = () => ws.send('ping');
