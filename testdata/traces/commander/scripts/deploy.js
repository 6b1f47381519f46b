#!/usr/bin/env node
const { program } = require('commander');

program.name('deploy').description('Deploy services to the cluster');

program
  .command('deploy')
  .argument('<service>', 'service to deploy')
  .option('-e, --env <env>', 'target environment', 'staging')
  .action((service, options) => {
    console.log(`deploying ${service} to ${options.env}`);
  });

program
  .command('rollback')
  .argument('<service>')
  .action((service) => console.log(`rolling back ${service}`));

program.parse();
