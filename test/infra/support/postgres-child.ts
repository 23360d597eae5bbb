// A test process that starts a cluster and then ends without tearing it down, the way argv[2]
// says: 'exit' (process.exit), or by waiting to be killed ('wait').
import { PgCluster } from '../../helpers/postgres-cluster.js';
import { postmasterPid } from '../../helpers/postgres-guard.js';

async function main(): Promise<void> {
  const cluster = await PgCluster.start();
  process.stdout.write(`${JSON.stringify({ baseDir: cluster.baseDir, pid: postmasterPid(cluster.dataDir) })}\n`);
  if (process.argv[2] === 'exit') process.exit(3);
  setInterval(() => {}, 1000);
}

main().catch((e) => {
  process.stderr.write(`${String(e)}\n`);
  process.exit(1);
});
