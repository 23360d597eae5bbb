/**
 * History readers: a store that is not JSON lines (a SQLite database, one JSON document per
 * session) becomes the line stream its schema reads. A reader lists the logs one store file
 * holds and makes one log's lines; it never writes to the store it reads.
 */
import type { HistoryLog, HistoryReader } from './reader-types.js';
import { cursorTranscript } from './cursor-transcript.js';
import { geminiChat } from './gemini-chat.js';
import { gooseSessions } from './goose-sessions.js';
import { grokUpdates } from './grok-updates.js';
import { kimiCliContext } from './kimi-cli-context.js';
import { kimiWire } from './kimi-wire.js';
import { openclawSqlite } from './openclaw-sqlite.js';
import { opencodeSqlite } from './opencode-sqlite.js';
import { rooTask } from './roo-task.js';

export type { HistoryReader } from './reader-types.js';


const READERS: Record<string, HistoryReader> = {
  'gemini-chat': geminiChat,
  'cursor-transcript': cursorTranscript,
  'opencode-sqlite': opencodeSqlite,
  'openclaw-sqlite': openclawSqlite,
  'grok-updates': grokUpdates,
  'kimi-wire': kimiWire,
  'kimi-cli-context': kimiCliContext,
  'goose-sessions': gooseSessions,
  'roo-task': rooTask,
};

export function historyReader(name: string): HistoryReader {
  const r = READERS[name];
  if (!r) throw new Error(`unknown history reader "${name}"`);
  return r;
}
