/**
 * A real PostgreSQL server for tests: its own cluster, made with initdb in a temporary directory,
 * listening on a private unix socket directory and a free port on 127.0.0.1, with password
 * (SCRAM) authentication on both so per-role credentials are really checked. It can be stopped
 * and started again mid-test (the server going down). Tests use it through test/helpers/postgres.ts,
 * which ties its teardown to the test file; the exit guard (postgres-guard.ts) covers the rest.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { findPostgresBin, runServerCommand, serverUser, type PostgresBin, type ServerUser } from './postgres-bin.js';
import { CLUSTER_DIR_PREFIX, guard, postmasterPid, release, sweepAbandoned } from './postgres-guard.js';

/** Credentials of one role, enough to connect as it. */
export interface PgRole {
  user: string;
  password: string;
}

export interface ConnectOptions {
  database?: string;
  /** Over the unix socket instead of TCP. */
  socket?: boolean;
}

const SUPERUSER = 'postgres';
/** Longest unix socket path the kernel takes is 107 bytes; the socket file adds ~18. */
const MAX_SOCKET_DIR = 85;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Clusters started in this process and not destroyed yet. */
const started = new Set<PgCluster>();

const secret = () => randomBytes(18).toString('base64url');
const enc = encodeURIComponent;

export class PgCluster {
  readonly host = '127.0.0.1';
  readonly superuser: PgRole = { user: SUPERUSER, password: secret() };
  readonly dataDir: string;
  readonly socketDir: string;
  readonly logFile: string;
  private readonly clients = new Set<pg.Client>();
  private portNumber = 0;

  private constructor(readonly bin: PostgresBin, readonly baseDir: string, private readonly user: ServerUser | undefined) {
    this.dataDir = join(baseDir, 'data');
    this.socketDir = join(baseDir, 'sock');
    this.logFile = join(baseDir, 'server.log');
  }

  /**
   * initdb + start. The cluster's directory is made directly in the temp dir, not under the test
   * file's root: that root is private to the user running the tests (the server user could not
   * enter it), and a short path keeps the socket within the kernel's length limit.
   */
  static async start(): Promise<PgCluster> {
    const bin = findPostgresBin();
    sweepAbandoned();
    const base = mkdtempSync(join(tmpdir(), CLUSTER_DIR_PREFIX));
    const cluster = new PgCluster(bin, base, serverUser());
    guard(cluster);
    started.add(cluster);
    try {
      await cluster.init();
      await cluster.startOnFreePort();
      return cluster;
    } catch (e) {
      await cluster.destroy();
      throw e;
    }
  }

  /** Every cluster this process started that is not destroyed yet. */
  static all(): PgCluster[] {
    return [...started];
  }

  get port(): number {
    return this.portNumber;
  }

  /** postgres://user:password@127.0.0.1:port/database */
  url(role: PgRole = this.superuser, database = 'postgres'): string {
    return `postgres://${enc(role.user)}:${enc(role.password)}@${this.host}:${this.port}/${enc(database)}`;
  }

  /** The same over the unix socket, in the form libpq and pg both read: postgres://u:p@/db?host=/dir&port=N */
  socketUrl(role: PgRole = this.superuser, database = 'postgres'): string {
    return `postgres://${enc(role.user)}:${enc(role.password)}@/${enc(database)}?host=${enc(this.socketDir)}&port=${this.port}`;
  }

  /** A pg_service.conf entry for `role` (libpq's service file format). */
  serviceFileEntry(service: string, role: PgRole = this.superuser, database = 'postgres'): string {
    return `[${service}]\nhost=${this.host}\nport=${this.port}\ndbname=${database}\nuser=${role.user}\npassword=${role.password}\n`;
  }

  /**
   * A connected client, closed at teardown. A client whose server goes away (stop() mid-test)
   * emits 'error'; that is kept in `lastError` instead of crashing the test process.
   */
  async connect(role: PgRole = this.superuser, opts: ConnectOptions = {}): Promise<pg.Client & { lastError?: Error }> {
    const database = opts.database ?? 'postgres';
    const client: pg.Client & { lastError?: Error } = new pg.Client({
      connectionString: opts.socket ? this.socketUrl(role, database) : this.url(role, database),
      connectionTimeoutMillis: 10_000,
    });
    client.on('error', (e) => (client.lastError = e));
    this.clients.add(client);
    client.once('end', () => this.clients.delete(client));
    await client.connect();
    return client;
  }

  /** One statement as the superuser, on a connection of its own (so it works across restarts). */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: unknown[] = [], database = 'postgres'): Promise<pg.QueryResult<R>> {
    const client = await this.connect(this.superuser, { database });
    try {
      return await client.query<R>(sql, params);
    } finally {
      await client.end();
    }
  }

  /** A login role with a password of its own (`options` is the rest of CREATE ROLE, e.g. 'CREATEDB'). */
  async createRole(name: string, options = ''): Promise<PgRole> {
    const role = { user: name, password: secret() };
    await this.query(`CREATE ROLE ${pg.escapeIdentifier(name)} LOGIN PASSWORD ${pg.escapeLiteral(role.password)} ${options}`);
    return role;
  }

  async createDatabase(name: string, owner?: PgRole): Promise<string> {
    const ownedBy = owner ? ` OWNER ${pg.escapeIdentifier(owner.user)}` : '';
    await this.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}${ownedBy}`);
    return name;
  }

  async isRunning(): Promise<boolean> {
    return (await this.pgCtl(['status'])).code === 0;
  }

  /** The server goes down: 'fast' is a clean shutdown, 'immediate' is like a crash (recovery at next start). */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    const r = await this.pgCtl(['stop', '-m', mode, '-w', '-t', '60']);
    if (r.code !== 0) throw new Error(`pg_ctl stop failed (${r.code}): ${r.output}`);
  }

  /** Starts it again on the same port and socket. */
  async start(): Promise<void> {
    const r = await this.pgCtl(['start', '-w', '-t', '60', '-l', this.logFile]);
    if (r.code !== 0) throw new Error(`pg_ctl start failed (${r.code}): ${r.output}\nserver log:\n${this.logTail()}`);
  }

  /** Closes clients, stops the server (escalating if it does not stop), removes the directory. */
  async destroy(): Promise<void> {
    await Promise.allSettled([...this.clients].map((c) => c.end()));
    this.clients.clear();
    if (await this.isRunning()) {
      const fast = await this.pgCtl(['stop', '-m', 'fast', '-w', '-t', '20']);
      if (fast.code !== 0) await this.pgCtl(['stop', '-m', 'immediate', '-w', '-t', '20']);
      const pid = postmasterPid(this.dataDir);
      if (pid !== undefined && await this.isRunning()) process.kill(pid, 'SIGKILL');
    }
    release(this);
    started.delete(this);
    if (!process.env.CLAUDE_MEM_KEEP_TEST_DIRS) rmSync(this.baseDir, { recursive: true, force: true });
  }

  private async init(): Promise<void> {
    if (this.socketDir.length > MAX_SOCKET_DIR) {
      throw new Error(`temp dir path too long for a unix socket (${this.socketDir}); set TMPDIR to a shorter one`);
    }
    mkdirSync(this.socketDir);
    const pwfile = join(this.baseDir, 'pwfile');
    writeFileSync(pwfile, `${this.superuser.password}\n`, { mode: 0o600 });
    this.ownByServer(this.baseDir, 0o700);
    this.ownByServer(this.socketDir, 0o700);
    this.ownByServer(pwfile, 0o600);
    const r = await runServerCommand(this.bin, 'initdb', ['-D', this.dataDir, '-U', SUPERUSER, `--pwfile=${pwfile}`,
      '--auth=scram-sha-256', '--encoding=UTF8', '--no-locale', '--no-sync', '--no-instructions'], this.user);
    rmSync(pwfile, { force: true });
    if (r.code !== 0) throw new Error(`initdb failed (${r.code}): ${r.output}`);
    writeFileSync(join(this.dataDir, 'postgresql.conf'), '\ninclude = \'claude-mem-test.conf\'\n', { flag: 'a' });
  }

  /** Another process can take the port between probe and bind: then try another one. */
  private async startOnFreePort(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      this.portNumber = await freePort();
      this.writeSettings();
      try {
        await this.start();
        return;
      } catch (e) {
        if (attempt === 3 || !/could not bind|already in use/i.test(String(e))) throw e;
      }
    }
  }

  private writeSettings(): void {
    const file = join(this.dataDir, 'claude-mem-test.conf');
    writeFileSync(file, [
      `listen_addresses = '${this.host}'`,
      `port = ${this.port}`,
      `unix_socket_directories = '${this.socketDir}'`,
      // A throwaway cluster: surviving an operating-system crash is not what the tests check.
      'fsync = off',
      'full_page_writes = off',
      '',
    ].join('\n'));
    this.ownByServer(file, 0o600);
  }

  private ownByServer(path: string, mode: number): void {
    if (this.user) chownSync(path, this.user.uid, this.user.gid);
    chmodSync(path, mode);
  }

  private logTail(): string {
    try {
      return readFileSync(this.logFile, 'utf8').split('\n').slice(-20).join('\n');
    } catch {
      return '(no server log)';
    }
  }

  private pgCtl(args: string[]) {
    return runServerCommand(this.bin, 'pg_ctl', ['-D', this.dataDir, ...args], this.user);
  }
}
