/**
 * After Codex's hooks are written: Codex runs only trusted hooks, so with the user's consent we
 * ask it (codex app-server) to trust ours, as its /hooks screen does, and record what it wrote so
 * uninstall takes it back. Doctor asks Codex the same question.
 */
import type { AfterApply, AfterApplyInput, HooksCheckContext, HookTrust } from '../../npx-cli/hosts/types.js';
import { errorText, within } from '../../npx-cli/doctor/timebox.js';
import type { Check } from '../../npx-cli/doctor/types.js';
import { codexFacts } from './codex-facts.js';

/** The app-server client and the TOML reader load only when Codex is asked. */
const trustModule = () => import('./codex-trust.js');

async function askCodex(step: AfterApplyInput): Promise<HookTrust> {
  const r = step.result;
  const { TRUST_FIX, trustCodexHooks } = await trustModule();
  if (!step.consent) {
    return { state: 'not-asked', detail: 'not trusted: no consent was given (--yes or the interactive confirm)', fix: TRUST_FIX, hooks: [] };
  }
  step.progress('Trusting the claude-mem hooks through codex app-server…', 'info');
  const { trust, written } = await trustCodexHooks(step.env, step.files);
  if (written) {
    const { recordTrust } = await import('./codex-trust-manifest.js');
    await recordTrust(written, { manifestPath: step.paths.manifest, backupsDir: step.paths.backups }).catch((e: Error) => {
      r.warnings.push(`the trust entries Codex wrote were not recorded for uninstall: ${e.message}`);
    });
  }
  return trust;
}

export const codexAfterApply: AfterApply = {
  preview: (decision) => (decision?.capture === 'hooks' ? 'then ask Codex (codex app-server) to trust these hooks, as its /hooks screen does' : undefined),
  async run(step) {
    const r = step.result;
    if (r.capture !== 'hooks') return;
    const t = await askCodex(step);
    r.trust = t;
    if (t.state === 'trusted') {
      r.nextSteps = r.nextSteps.filter((s) => !/trust/i.test(s));
      r.captureDetail.push('hooks trusted in Codex (as /hooks does)');
    } else {
      r.warnings.push(`Codex capture is OFF until the hooks are trusted: ${t.detail}`);
    }
  },
};

/** Codex runs only trusted hooks, and skips the others silently: ask Codex itself (codex app-server). */
export async function codexTrustCheck(ctx: HooksCheckContext): Promise<Check> {
  const host = codexFacts.id;
  const id = `${host}.hooks-trust`;
  try {
    const { codexTrustStatus } = await trustModule();
    const t = await within(codexTrustStatus({ env: ctx.env, dataDir: ctx.paths.root }), ctx.probeTimeoutMs, 'asking codex app-server');
    if (t.state === 'trusted') return { id, area: 'hosts', host, status: 'ok', evidence: t.detail };
    const status = t.state === 'unavailable' ? 'warn' : 'fail';
    return { id, area: 'hosts', host, status, evidence: t.detail, ...(t.fix && { fix: t.fix }) };
  } catch (e) {
    return { id, area: 'hosts', host, status: 'warn', evidence: `${codexFacts.label} trust not verified: ${errorText(e)}`, fix: 'Start codex, type /hooks and check that the claude-mem hooks are trusted.' };
  }
}
