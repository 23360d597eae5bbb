// Entry point of the `claude-mem` command, built as CommonJS (dist/bin.js; see scripts/build.mjs).
// The hook path loads only the hook bundle, synchronously and through a code cache: hosts run it
// on every tool call and pay neither for the CLI's dependencies nor for node's ES module loader.
// Everything else loads the CLI, an ES module.
import { join } from 'node:path';
import { loadBundle } from './code-cache.js';

declare const __CLAUDE_MEM_VERSION__: string | undefined;

interface Command {
  main(argv: string[]): Promise<void>;
}

const args = process.argv.slice(2);
const version = typeof __CLAUDE_MEM_VERSION__ === 'string' ? __CLAUDE_MEM_VERSION__ : undefined;
if (version && args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // Answered here as commander would (the version, exit 0), without loading the CLI at all.
  process.stdout.write(`${version}\n`);
} else if (args[0] === 'hook') {
  // One cache per V8 version: hosts configured with different node binaries do not overwrite each other's.
  const hook = loadBundle<Command>(join(__dirname, 'hook.js'), join(__dirname, `hook.v8-${process.versions.v8}.cache`));
  void hook.exports.main(args).then(() => hook.save());
} else {
  // A path in a variable: resolved next to dist/bin.js at run time, not by the compiler.
  const cli = './cli.mjs';
  void (import(cli) as Promise<Command>).then((mod) => mod.main(args));
}
