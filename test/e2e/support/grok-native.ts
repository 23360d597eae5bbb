/**
 * Grok Build's npm package is a launcher; the program is a brotli-compressed Rust binary in the
 * platform package. Its own install script unpacks it into the installing user's ~/.grok (and
 * writes ~/.grok/config.toml), and the launcher does the same on first run when the script did
 * not. So the cache installs with --ignore-scripts and does here, inside the cache folder, what
 * the script does inside the package on Unix: the binary next to the launcher as `grok-native`,
 * and `bin/grok` a symlink to it (test/fixtures/hosts/grok-build/README.md, "Install").
 */
import { chmodSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

export function unpackGrokNative(dir: string): void {
  const scope = join(dir, 'node_modules', '@xai-official');
  const binDir = join(scope, 'grok', 'bin');
  const native = join(binDir, 'grok-native');
  const tmp = `${native}.tmp-${process.pid}`;
  writeFileSync(tmp, brotliDecompressSync(readFileSync(join(scope, 'grok-linux-x64', 'bin', 'grok.br'))));
  chmodSync(tmp, 0o755);
  renameSync(tmp, native);
  const launcher = join(binDir, 'grok');
  rmSync(launcher, { force: true });
  symlinkSync('grok-native', launcher);
}
