/**
 * Codex CLI hooks: Claude's layout with `turn_id` as the host's turn id (on the prompt and on the
 * tool events of that turn), `model`, and `tool_response` as plain text. SessionEnd exists in
 * current versions (its timeout is clamped to 3 s by Codex, so it stays a capture-only event).
 */
import { claudeLineage, claudeOutput } from '../claude-code/claude-code-hooks.js';
import { defineAdapter } from '../../hook/adapters/define.js';

export const codexAdapter = defineAdapter({
  host: 'codex',
  events: ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SubagentStop', 'PreCompact', 'SessionEnd'],
  contextEvents: ['SessionStart', 'UserPromptSubmit'],
  handlers: claudeLineage('codex', 'turn_id'),
  sessionId: (p) => p.session_id,
  cwd: (p) => [p.cwd],
  transcript: (p) => p.transcript_path,
  formatOutput: claudeOutput,
});
