#!/usr/bin/env node
const { program } = require('commander');

program
  .requiredOption('-d, --dest <dir>', 'backup destination')
  .option('-c, --compress', 'gzip the archive')
  .parse(process.argv);

const { dest, compress } = program.opts();
console.log(`backing up to ${dest}${compress ? ' (gzip)' : ''}`);
