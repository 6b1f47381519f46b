#!/usr/bin/env node
const { program } = require('commander');

program
  .argument('<name>')
  .allowExcessArguments(false)
  .action((name) => console.log(`hello ${name}`));

program.parse();
