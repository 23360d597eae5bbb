/**
 * A stand-in `codex` executable for fast tests of the trust flow: `--version`, and `app-server`
 * speaking the same line-delimited JSON-RPC as the real one for initialize, hooks/list and
 * config/batchWrite (its hashes are its own; the real protocol is proven by the e2e test).
 * FAKE_CODEX_MODE=crash makes app-server exit at once; =mute makes it never answer.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SCRIPT = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const args = process.argv.slice(2);
if (args[0] === '--version') { console.log('codex-cli 0.171.0'); process.exit(0); }
if (args[0] !== 'app-server') { console.error('fake codex: unsupported ' + args.join(' ')); process.exit(2); }
const mode = process.env.FAKE_CODEX_MODE || '';
if (mode === 'crash') { console.error('ERROR boom'); process.exit(3); }
const home = process.env.CODEX_HOME || path.join(process.env.HOME, '.codex');
const config = path.join(home, 'config.toml');
const log = process.env.FAKE_CODEX_LOG;
const snake = (s) => s.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
const camel = (s) => s[0].toLowerCase() + s.slice(1);
function trusted() {
  const out = {};
  let text = '';
  try { text = fs.readFileSync(config, 'utf8'); } catch {}
  const re = /\[hooks\.state\."([^"]+)"\]\s*\ntrusted_hash = "([^"]+)"/g;
  for (let m; (m = re.exec(text));) out[m[1]] = m[2];
  return out;
}
function list() {
  const file = path.join(home, 'hooks.json');
  let doc;
  try { doc = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return []; }
  const t = trusted();
  const hooks = [];
  for (const [event, groups] of Object.entries(doc.hooks || {})) {
    groups.forEach((g, gi) => (g.hooks || []).forEach((h, hi) => {
      const key = file + ':' + snake(event) + ':' + gi + ':' + hi;
      const currentHash = 'sha256:' + crypto.createHash('sha256').update(JSON.stringify([g.matcher || null, h])).digest('hex');
      hooks.push({ key, eventName: camel(event), handlerType: h.type, command: h.command, async: false, matcher: g.matcher || null,
        sourcePath: file, source: 'user', isManaged: false, enabled: true, currentHash,
        trustStatus: t[key] === undefined ? 'untrusted' : t[key] === currentHash ? 'trusted' : 'modified' });
    }));
  }
  return hooks;
}
function write(edits) {
  let text = '';
  try { text = fs.readFileSync(config, 'utf8'); } catch {}
  for (const e of edits) {
    const m = /^hooks\.state\."(.+)"\.trusted_hash$/.exec(e.keyPath);
    if (!m) throw new Error('unsupported keyPath ' + e.keyPath);
    const header = '[hooks.state."' + m[1] + '"]';
    const at = text.indexOf(header);
    if (at >= 0) {
      const start = text.indexOf('trusted_hash = "', at) + 'trusted_hash = "'.length;
      text = text.slice(0, start) + e.value + text.slice(text.indexOf('"', start));
    }
    // Like Codex: a blank line, then the table, at the end of the file (which keeps its final newline).
    else text = (text && !text.endsWith('\n') ? text + '\n' : text) + (text ? '\n' : '') + header + '\ntrusted_hash = "' + e.value + '"\n';
  }
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(config, text);
}
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d;
  for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    if (!line.trim()) continue;
    const msg = JSON.parse(line);
    if (log) fs.appendFileSync(log, JSON.stringify(msg) + '\n');
    if (mode === 'mute' || msg.id === undefined) continue;
    const reply = (result) => process.stdout.write(JSON.stringify({ id: msg.id, result }) + '\n');
    try {
      if (msg.method === 'initialize') reply({ userAgent: 'fake', codexHome: home, platformFamily: 'unix', platformOs: 'linux' });
      else if (msg.method === 'hooks/list') reply({ data: [{ cwd: (msg.params.cwds || [])[0], hooks: list(), warnings: [], errors: [] }] });
      else if (msg.method === 'config/batchWrite') { write(msg.params.edits); reply({ status: 'ok', version: 'v', filePath: config, overriddenMetadata: null }); }
      else process.stdout.write(JSON.stringify({ id: msg.id, error: { code: -32601, message: 'unknown method' } }) + '\n');
    } catch (e) {
      process.stdout.write(JSON.stringify({ id: msg.id, error: { code: -32000, message: String(e.message) } }) + '\n');
    }
  }
});
process.stdin.on('end', () => process.exit(0));
`;

/** Writes `<dir>/codex` and returns the directory (put it first on PATH). */
export function fakeCodexBin(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'codex');
  writeFileSync(file, `#!${process.execPath}\n${SCRIPT}`);
  chmodSync(file, 0o755);
  return dir;
}
