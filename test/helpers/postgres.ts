/**
 * A real PostgreSQL server for tests: its own cluster, made with initdb in a temporary directory,
 * listening on a private unix socket directory and a free port on 127.0.0.1, with password
 * (SCRAM) authentication on both so per-role credentials are really checked. It can be stopped
 * and started again mid-test (the server going down), and is always torn down: by the test file's
 * hooks, and by the exit guard (test/helpers/postgres-guard.ts) when the process ends early.
 *
 *   const pg = usePostgres();           // one cluster for the test file
 *   const alice = await pg().createRole('alice');
 *   const client = await pg().connect(alice);
 *
 * Set CLAUDE_MEM_SKIP_POSTGRES=1 to skip these tests on a machine without PostgreSQL (local use
 * only: .ci/run clears it, and without it a missing server fails the tests).
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { PgCluster } from './postgres-cluster.js';

export { PgCluster, type PgRole, type ConnectOptions } from './postgres-cluster.js';

/** `describe` that CLAUDE_MEM_SKIP_POSTGRES=1 skips (never set in CI). */
export const describePostgres = describe.skipIf(process.env.CLAUDE_MEM_SKIP_POSTGRES === '1');

// Whatever a test file started, and however its tests ended (failed, timed out), is torn down after it.
afterAll(async () => {
  await Promise.allSettled(PgCluster.all().map((c) => c.destroy()));
}, 120_000);

/** Starts a cluster for the calling test file (beforeAll); the file's afterAll tears it down. */
export function usePostgres(): () => PgCluster {
  let cluster: PgCluster | undefined;
  beforeAll(async () => {
    cluster = await PgCluster.start();
  }, 120_000);
  return () => {
    if (!cluster) throw new Error('the PostgreSQL cluster is not up (usePostgres() starts it in beforeAll)');
    return cluster;
  };
}
