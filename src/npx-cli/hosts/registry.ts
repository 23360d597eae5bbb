/** Every host's install module (src/hosts/<id>/<id>-install.ts), loaded only by the commands that need them. */
import { HOST_IDS, type HostId } from '../../shared/hosts.js';
import { antigravity } from '../../hosts/antigravity/antigravity-install.js';
import { claudeCode } from '../../hosts/claude-code/claude-code-install.js';
import { codex } from '../../hosts/codex/codex-install.js';
import { copilot } from '../../hosts/copilot/copilot-install.js';
import { cursor } from '../../hosts/cursor/cursor-install.js';
import { dsh } from '../../hosts/dsh/dsh-install.js';
import { gemini } from '../../hosts/gemini/gemini-install.js';
import { goose } from '../../hosts/goose/goose-install.js';
import { grok } from '../../hosts/grok/grok-install.js';
import { kimi } from '../../hosts/kimi/kimi-install.js';
import { omp } from '../../hosts/omp/omp-install.js';
import { openclaw } from '../../hosts/openclaw/openclaw-install.js';
import { opencode } from '../../hosts/opencode/opencode-install.js';
import { pi } from '../../hosts/pi/pi-install.js';
import { rooCode } from '../../hosts/roo-code/roo-code-install.js';
import { t3code } from '../../hosts/t3code/t3code-install.js';
import { warp } from '../../hosts/warp/warp-install.js';
import { windsurf } from '../../hosts/windsurf/windsurf-install.js';
import type { HostModule } from './types.js';

const BY_ID = new Map<HostId, HostModule>([
  claudeCode, codex, cursor, windsurf, kimi, antigravity, t3code, opencode, openclaw, omp, pi, dsh, grok,
  copilot, goose, rooCode, warp, gemini,
].map((m) => [m.id, m]));

/** All host modules, in HOST_IDS order (test/hosts/registry.test.ts checks that each host has one). */
export const HOST_MODULES: readonly HostModule[] = HOST_IDS.map((id) => BY_ID.get(id)!);

export function hostModule(id: HostId): HostModule {
  return BY_ID.get(id)!;
}
