#!/usr/bin/env node
const { program } = require('commander');

program
  .command('build')
  .option('--minify', 'minify output')
  .action((opts) => console.log('building', opts));

program.command('watch').action(() => console.log('watching'));

program.parse();
