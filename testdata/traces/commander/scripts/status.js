#!/usr/bin/env node
const { program } = require('commander');

program
  .command('status')
  .option('--url <url>', 'service url', 'http://127.0.0.1:59999/status')
  .action(async (opts) => {
    const res = await fetch(opts.url);
    console.log(res.status, await res.text());
  });

program.parseAsync(process.argv);
