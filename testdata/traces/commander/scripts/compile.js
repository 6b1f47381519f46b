#!/usr/bin/env node
const { program } = require('commander');

program
  .option('-o, --output <file>', 'output file')
  .option('--target <target>', 'compile target', 'es2020')
  .parse();

console.log(program.opts());
