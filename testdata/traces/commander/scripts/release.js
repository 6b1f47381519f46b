#!/usr/bin/env node
const { Command, Option } = require('commander');

const program = new Command();
program
  .addOption(new Option('--env <name>', 'environment').choices(['dev', 'staging', 'prod']))
  .option('--dry-run', 'do not publish')
  .parse();

console.log(program.opts());
