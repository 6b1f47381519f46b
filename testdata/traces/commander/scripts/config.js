#!/usr/bin/env node
const fs = require('fs');
const { program } = require('commander');

program
  .command('show')
  .option('-c, --config <path>', 'config file', './tool.config.json')
  .action((opts) => {
    const cfg = JSON.parse(fs.readFileSync(opts.config, 'utf8'));
    console.log(cfg);
  });

program.parse();
