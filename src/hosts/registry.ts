/**
 * Every host claude-mem knows, in its public order: the one list a new host is added to. Host ids,
 * labels and aliases (src/shared/hosts.ts) are derived from it. Facts only: light enough for the hook.
 * A host's dialect and install module are found by folder (src/hook/adapters/index.ts,
 * src/npx-cli/hosts/modules.ts); test/hosts/one-place.test.ts checks that each folder is complete.
 */
import { antigravityFacts } from './antigravity/antigravity-facts.js';
import { claudeCodeFacts } from './claude-code/claude-code-facts.js';
import { codexFacts } from './codex/codex-facts.js';
import { copilotFacts } from './copilot/copilot-facts.js';
import { cursorFacts } from './cursor/cursor-facts.js';
import { dshFacts } from './dsh/dsh-facts.js';
import { geminiFacts } from './gemini/gemini-facts.js';
import { gooseFacts } from './goose/goose-facts.js';
import { grokFacts } from './grok/grok-facts.js';
import { kimiFacts } from './kimi/kimi-facts.js';
import { ompFacts } from './omp/omp-facts.js';
import { openclawFacts } from './openclaw/openclaw-facts.js';
import { opencodeFacts } from './opencode/opencode-facts.js';
import { piFacts } from './pi/pi-facts.js';
import { rooCodeFacts } from './roo-code/roo-code-facts.js';
import { t3codeFacts } from './t3code/t3code-facts.js';
import { warpFacts } from './warp/warp-facts.js';
import { windsurfFacts } from './windsurf/windsurf-facts.js';

export const HOST_FACTS = [
  claudeCodeFacts,
  codexFacts,
  cursorFacts,
  windsurfFacts,
  kimiFacts,
  antigravityFacts,
  t3codeFacts,
  opencodeFacts,
  openclawFacts,
  ompFacts,
  piFacts,
  dshFacts,
  grokFacts,
  copilotFacts,
  gooseFacts,
  rooCodeFacts,
  warpFacts,
  geminiFacts,
] as const;

/** The host a memory saved without one belongs to (every session belongs to a host). */
export const DEFAULT_MEMORY_HOST = claudeCodeFacts.id;
