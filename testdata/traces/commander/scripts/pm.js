#!/usr/bin/env node
const { program } = require('commander');

program
  .name('pm')
  .version('0.3.0')
  .command('install [packages...]', 'install one or more packages')
  .command('search <query>', 'search the registry');

program.parse(process.argv);
