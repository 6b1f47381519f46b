#!/usr/bin/env node
const { program } = require('commander');

program.exitOverride();

program
  .option('-w, --workers <n>', 'number of workers', '4')
  .option('-q, --quiet', 'less output');

program.parse(process.argv);
console.log('running with', program.opts());
