#!/usr/bin/env node
const { program } = require('commander');

program
  .option('--fix', 'automatically fix problems')
  .option('--max-warnings <n>', 'number of warnings to trigger nonzero exit', '0')
  .argument('[paths...]')
  .action((paths, opts) => {
    console.log('linting', paths, opts);
  });

program.parse();
