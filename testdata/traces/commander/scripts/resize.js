#!/usr/bin/env node
const { program } = require('commander');

program
  .argument('<image>', 'image to resize')
  .option('-w, --width <px>', 'target width', '800')
  .option('-h, --height <px>', 'target height')
  .action((options) => {
    const width = parseInt(options.width.replace('px', ''), 10);
    console.log(`resizing to ${width}x${options.height || 'auto'}`);
  });

program.parse();
