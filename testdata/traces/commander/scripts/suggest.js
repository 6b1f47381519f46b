#!/usr/bin/env node
const { program } = require('commander');
const suggestSimilar = require('commander/lib/suggestSimilar');

const TOPICS = ['install', 'uninstall', 'update', 'search'];

program
  .argument('<topic>')
  .action((topic) => {
    if (!TOPICS.includes(topic)) {
      console.error(`unknown topic ${topic}${suggestSimilar(topic, TOPICS)}`);
      process.exitCode = 1;
    }
  });

program.parse();
