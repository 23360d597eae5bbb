/**
 * The hosts no conformance test can run here, and why: the rows of the matrix that a test run
 * cannot write. Keep in step with src/npx-cli/hosts/ and ../shared/reference/HOSTS.md.
 */
export interface HostNotRun {
  id: string;
  name: string;
  capture: string;
  recall: string;
  /** Why no real binary runs in the suite. */
  why: string;
  /** What covers it instead. */
  coverage: string;
}

export const HOSTS_NOT_RUN: HostNotRun[] = [
  { id: 'cursor', name: 'Cursor', capture: 'hooks (`~/.cursor/hooks.json`: after-events and the prompt)', recall: 'context (sessionStart) + MCP (`~/.cursor/mcp.json`)', why: 'an editor, not on the npm registry', coverage: '**UNVERIFIED**: adapter and config from documentation (HOSTS.md §3); no captured payloads.' },
  { id: 'windsurf', name: 'Windsurf', capture: 'hooks (`~/.codeium/windsurf/hooks.json`)', recall: 'MCP only (its hooks cannot inject context)', why: 'an editor, not on the npm registry', coverage: '**UNVERIFIED**: documentation only (HOSTS.md §4).' },
  { id: 'antigravity', name: 'Antigravity', capture: 'one named hook in `~/.gemini/config/hooks.json`', recall: 'context (SessionStart, PreInvocation) + MCP (`~/.gemini/config/mcp_config.json`)', why: 'an editor, not on the npm registry', coverage: '**UNVERIFIED**: secondary sources (HOSTS.md §6); its Gemini CLI lineage is proven through the Gemini CLI row.' },
  { id: 't3code', name: 'T3 Code', capture: 'through its providers (Codex, Claude Code)', recall: 'through its providers', why: 'a desktop app', coverage: 'No changes of its own; relies on the Codex and Claude Code rows. **UNVERIFIED** that it passes their hook configuration through.' },
  { id: 'dsh', name: 'DeepSeek Harness', capture: 'transcript watch of `$DSH_HOME/sessions/**/session.jsonl*`', recall: 'MCP + a recall-only Cordis plugin (session-start context), both in `$DSH_HOME/cordis.patch.yml`', why: 'no published `@deepseek-ai/dsh` boots (checked 2026-12-01 with pnpm, the only client it installs with, in a HOME of its own): 0.1.5-rc.2 does not install (`@deepseek-ai/dsh-agent-instructions@^0.1.5-rc.2` and `@deepseek-ai/dsh-acp-app@^0.1.5-rc.2` were never published); 0.1.0-rc.6 and 0.1.0-rc.8 install (rc.6 resolves rc.8 of the boot package), then `dsh --profile headless` fails on Node 20.20.2 (plugins `dsh-session-persistence-jsonl`, `dsh-code-runtime-worker-thread` do not load) and on Node 24.22.3 with `user patch-layer watching requires the Cordis HMR service` (`@deepseek-ai/cordis-plugin-hmr` 1.0.19 resolved; with the other published ones, 1.0.16 and 1.0.17, `hmr.registerConfig is not a function` is reported)', coverage: '**DOCUMENTATION-BASED, UNVERIFIED against a running host**: transcript fixtures are generated (`test/fixtures/transcripts/dsh/`), the Cordis plugin runs against a harness of its documented API.' },
  { id: 'goose', name: 'Goose', capture: 'user plugin `~/.agents/plugins/claude-mem/` (Open Plugins hooks)', recall: 'MCP (`extensions.claude-mem` in `~/.config/goose/config.yaml`)', why: 'a Rust binary, not on the npm registry', coverage: "**UNVERIFIED**: from HOSTS.md §15 and Goose's hooks guide." },
  { id: 'roo-code', name: 'Roo Code / Zoo Code', capture: 'none', recall: "MCP only (`settings/mcp_settings.json` in each editor's global storage)", why: 'an editor extension', coverage: '**UNVERIFIED**: documentation only; nothing is captured from its sessions.' },
  { id: 'warp', name: 'Warp', capture: 'none', recall: 'MCP only (`~/.warp/.mcp.json`)', why: 'a desktop app', coverage: '**UNVERIFIED**: documentation only; nothing is captured from its sessions.' },
];
