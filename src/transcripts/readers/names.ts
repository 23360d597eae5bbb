/** The history readers a schema's `history.reader` may name (src/transcripts/readers/<name>.ts). */
export const HISTORY_READERS: readonly string[] = ['gemini-chat', 'cursor-transcript', 'opencode-sqlite', 'openclaw-sqlite', 'grok-updates', 'kimi-wire', 'kimi-cli-context', 'goose-sessions', 'roo-task'];
