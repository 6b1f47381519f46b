#!/usr/bin/env node
const { program } = require('commander');

program
  .command('list')
  .option('--all', 'include transitive dependencies')
  .action((opts) => {
    for (let i = 0; i < 200000; i++) {
      process.stdout.write(`package-${i}@1.0.${i % 10}\n`);
    }
  });

program.parse();
