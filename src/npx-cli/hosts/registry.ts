/** Every host module, in the public order of HOST_IDS. Adding a host is adding its file here. */
import { HOST_IDS, type HostId } from '../../shared/hosts.js';
import { antigravity } from './antigravity.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { cursor } from './cursor.js';
import { dsh } from './dsh.js';
import { gemini } from './gemini.js';
import { goose } from './goose.js';
import { grok } from './grok.js';
import { kimi } from './kimi.js';
import { omp } from './omp.js';
import { openclaw } from './openclaw.js';
import { opencode } from './opencode.js';
import { pi } from './pi.js';
import { rooCode } from './roo-code.js';
import { t3code } from './t3code.js';
import { warp } from './warp.js';
import { windsurf } from './windsurf.js';
import type { HostModule } from './types.js';

const MODULES: Readonly<Record<HostId, HostModule>> = {
  'claude-code': claudeCode,
  codex,
  cursor,
  windsurf,
  kimi,
  antigravity,
  t3code,
  opencode,
  openclaw,
  omp,
  pi,
  dsh,
  grok,
  copilot,
  goose,
  'roo-code': rooCode,
  warp,
  gemini,
};

/** All 18 host modules, in HOST_IDS order. */
export const HOST_MODULES: readonly HostModule[] = HOST_IDS.map((id) => MODULES[id]);

export function hostModule(id: HostId): HostModule {
  return MODULES[id];
}
