/**
 * Pinned observations: always part of their project's session-start context (context.ts), until
 * unpinned or forgotten (the pin goes with the observation).
 */
import { StoreError } from './errors.js';
import { observationKey, OBS_IDENTITY_FROM, OBS_IDENTITY_SQL, type ObservationIdentity } from './memory-keys.js';
import type { StatementCache } from './statements.js';
import type { PinRow } from './types.js';
export type { PinRow } from './types.js';


/** Active pins only (an unpinned row stays, with its time, for export and sync). */
export const ACTIVE_PIN = 'unpinned_at IS NULL';

/** Pinned observations in the context, at most. */
export const MAX_PINNED_IN_CONTEXT = 20;

export class Pins {
  constructor(private readonly stmts: StatementCache, private readonly now: () => Date) {}

  /** Pins an observation (pinned already: keeps the first time). Throws not_found for an unknown id. */
  pin(observationId: number, at = this.now().toISOString()): PinRow {
    const o = this.stmts.get(`SELECT o.project, ${OBS_IDENTITY_SQL} FROM ${OBS_IDENTITY_FROM} WHERE o.id = ?`).get(observationId) as
      | (ObservationIdentity & { project: string })
      | undefined;
    if (!o) throw new StoreError('not_found', `no observation #${observationId}`);
    this.stmts.get(`INSERT INTO pins (observation_id, obs_key, project, pinned_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (observation_id) DO UPDATE SET pinned_at = excluded.pinned_at, unpinned_at = NULL WHERE unpinned_at IS NOT NULL`)
      .run(observationId, observationKey(o), o.project, at);
    return this.get(observationId)!;
  }

  /** True when it was pinned. */
  unpin(observationId: number): boolean {
    return this.stmts.get(`UPDATE pins SET unpinned_at = ? WHERE observation_id = ? AND ${ACTIVE_PIN}`)
      .run(this.now().toISOString(), observationId).changes > 0;
  }

  get(observationId: number): PinRow | undefined {
    return this.stmts.get(`SELECT observation_id AS observationId, obs_key AS obsKey, project, pinned_at AS pinnedAt
      FROM pins WHERE observation_id = ? AND ${ACTIVE_PIN}`).get(observationId) as PinRow | undefined;
  }

  /** Oldest pin first; one project or all. */
  list(project?: string): PinRow[] {
    return this.stmts.get(`SELECT observation_id AS observationId, obs_key AS obsKey, project, pinned_at AS pinnedAt
      FROM pins WHERE (@project IS NULL OR project = @project) AND ${ACTIVE_PIN} ORDER BY pinned_at, observation_id`)
      .all({ project: project ?? null }) as PinRow[];
  }
}
