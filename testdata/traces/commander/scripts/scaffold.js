#!/usr/bin/env node
const { program } = require('commander');

program
  .option('-n, --name <name>', 'project name')
  .option('-t, --template <tpl>', 'template', 'basic');

program.parse(['--name', 'my-app', '--template', 'react']);

const opts = program.opts();
console.log(`creating ${opts.name.toLowerCase()} from ${opts.template}`);
