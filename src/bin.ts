// Entry point of the `claude-mem` command. The hook path loads only the hook bundle,
// so hosts never pay for the CLI's dependencies on every tool call.
declare const __CLAUDE_MEM_VERSION__: string | undefined;

const args = process.argv.slice(2);
const version = typeof __CLAUDE_MEM_VERSION__ === 'string' ? __CLAUDE_MEM_VERSION__ : undefined;
if (version && args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // Answered here as commander would (the version, exit 0), without loading the CLI at all.
  process.stdout.write(`${version}\n`);
} else {
  const entry = new URL(args[0] === 'hook' ? './hook.js' : './cli.js', import.meta.url).href;
  const mod = (await import(entry)) as { main(argv: string[]): Promise<void> };
  await mod.main(args);
}
