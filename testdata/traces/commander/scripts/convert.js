#!/usr/bin/env node
const { program } = require('commander');

program
  .name('convert')
  .argument('<input>', 'markdown file')
  .argument('[output]', 'html file')
  .action((input, output) => {
    console.log(`converting ${input} -> ${output || input.replace(/\.md$/, '.html')}`);
  });

program.parse();
