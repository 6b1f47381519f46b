import program from 'commander';

program.option('-o, --out <dir>', 'output directory', 'dist').parse();
console.log(program.opts());
