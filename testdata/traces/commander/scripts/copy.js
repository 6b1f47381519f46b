#!/usr/bin/env node
const { program } = require('commander');

program
  .name('cp2')
  .argument('<sources...>', 'files to copy')
  .argument('<dest>', 'destination directory')
  .action((sources, dest) => {
    for (const s of sources) console.log(`${s} -> ${dest}`);
  });

program.parse();
