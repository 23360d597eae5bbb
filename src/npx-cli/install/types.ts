/** Shapes shared by install, uninstall and their renderers (the `--json` documents are built from these). */
import type { HostId } from '../../shared/hosts.js';
import type { CaptureWriter, Detection, HookTrust, RecallPath } from '../hosts/types.js';

export type { WriterDecision } from '../hosts/types.js';

/** `off`: installed, but the host's own hook switch, which the user turned off, keeps capture off. */
type HostStatus = 'ok' | 'off' | 'skipped' | 'failed';

/** `rolled-back`: written, then put back as it was because another file of the host failed; `not-written`: left as it was. */
type FileAction = 'created' | 'modified' | 'unchanged' | 'restored' | 'removed' | 'rolled-back' | 'not-written';

export interface FileResult {
  path: string;
  action: FileAction;
  /** The unified diff (dry runs). */
  diff?: string;
  /** Why something was left in place (uninstall: the user changed it since). */
  notes?: string[];
}

/** One host's line in the summary and in `--json`. */
export interface HostResult {
  id: HostId;
  label: string;
  selected: boolean;
  detected: { installed: boolean; evidence: Detection['evidence']; version?: string; error?: string };
  capture: CaptureWriter | null;
  /** How the capture writer works for this host, in words (e.g. who else runs its hooks). */
  captureDetail: string[];
  recall: RecallPath | null;
  status: HostStatus;
  reason?: string;
  fix?: string;
  files: FileResult[];
  nextSteps: string[];
  notes: string[];
  warnings: string[];
  trust?: HookTrust;
}
