// Entry point of the `claude-mem` command. The hook path loads only the hook bundle,
// so hosts never pay for the CLI's dependencies on every tool call.
const command = process.argv[2];
const entry = new URL(command === 'hook' ? './hook.js' : './cli.js', import.meta.url).href;
const mod = (await import(entry)) as { main(argv: string[]): Promise<void> };
await mod.main(process.argv.slice(2));
