#!/usr/bin/env node
const { Command, Option } = require('commander');

const program = new Command();
program
  .addOption(new Option('--json', 'output JSON').conflicts('csv'))
  .addOption(new Option('--csv', 'output CSV'))
  .parse();

console.log(program.opts());
