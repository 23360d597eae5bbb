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
  { id: 'kimi', name: 'Kimi Code / kimi-cli', capture: '`[[hooks]]` in `config.toml` (`~/.kimi-code`, else `~/.kimi`)', recall: 'context (SessionStart, UserPromptSubmit) + MCP (`mcp.json`)', why: 'a Python CLI, not on the npm registry', coverage: "**UNVERIFIED**: built from kimi-cli's payload builders and Kimi Code's docs (HOSTS.md §5)." },
  { id: 'antigravity', name: 'Antigravity', capture: 'one named hook in `~/.gemini/config/hooks.json`', recall: 'context (SessionStart, PreInvocation) + MCP (`~/.gemini/config/mcp_config.json`)', why: 'an editor, not on the npm registry', coverage: '**UNVERIFIED**: secondary sources (HOSTS.md §6); its Gemini CLI lineage is proven through the Gemini CLI row.' },
  { id: 't3code', name: 'T3 Code', capture: 'through its providers (Codex, Claude Code)', recall: 'through its providers', why: 'a desktop app', coverage: 'No changes of its own; relies on the Codex and Claude Code rows. **UNVERIFIED** that it passes their hook configuration through.' },
  { id: 'dsh', name: 'DeepSeek Harness', capture: 'transcript watch of `$DSH_HOME/sessions/**/session.jsonl*`', recall: 'MCP + a recall-only Cordis plugin (session-start context), both in `$DSH_HOME/cordis.patch.yml`', why: 'no installable release on the registry (checked 2026-11-30): `@deepseek-ai/dsh@0.1.5-rc.2` depends on `@deepseek-ai/dsh-acp-app@^0.1.5-rc.2`, which was never published (ETARGET); installs of 0.1.0-rc.6 and rc.8 did not finish within 5 minutes', coverage: '**UNVERIFIED**: transcript fixtures are generated (`test/fixtures/transcripts/dsh/`), the Cordis plugin runs against a harness of its documented API.' },
  { id: 'grok', name: 'Grok Build', capture: 'hooks file in `~/.grok/hooks/` (Claude layout)', recall: 'context (SessionStart) + MCP (`[mcp_servers.claude-mem]` in `~/.grok/config.toml`)', why: 'the Grok Build CLI is not on the registry (none of `grok-build`, `@xai/grok-build`, `@x-ai/grok-build`, `@xai/grok`, `@x-ai/grok-cli`, `@xai/cli` exists); `@vibe-kit/grok-cli` is a different product with no hooks, plugins or session log', coverage: '**UNVERIFIED**: payloads from HOSTS.md §13.' },
  { id: 'goose', name: 'Goose', capture: 'user plugin `~/.agents/plugins/claude-mem/` (Open Plugins hooks)', recall: 'MCP (`extensions.claude-mem` in `~/.config/goose/config.yaml`)', why: 'a Rust binary, not on the npm registry', coverage: "**UNVERIFIED**: from HOSTS.md §15 and Goose's hooks guide." },
  { id: 'roo-code', name: 'Roo Code / Zoo Code', capture: 'none', recall: "MCP only (`settings/mcp_settings.json` in each editor's global storage)", why: 'an editor extension', coverage: '**UNVERIFIED**: documentation only; nothing is captured from its sessions.' },
  { id: 'warp', name: 'Warp', capture: 'none', recall: 'MCP only (`~/.warp/.mcp.json`)', why: 'a desktop app', coverage: '**UNVERIFIED**: documentation only; nothing is captured from its sessions.' },
];
