#!/usr/bin/env node
const { Command, InvalidArgumentError } = require('commander');

function parsePort(value) {
  const port = parseInt(value, 10);
  if (isNaN(port)) {
    throw new InvalidArgumentError('Not a number.');
  }
  return port;
}

const program = new Command();
program
  .option('-p, --port <number>', 'port to listen on', parsePort, 3000)
  .option('--host <host>', 'interface to bind', '127.0.0.1')
  .parse();

const opts = program.opts();
console.log(`listening on ${opts.host}:${opts.port}`);
