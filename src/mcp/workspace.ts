/**
 * The directory the agent works in. Hosts usually start MCP servers in the project, but some start
 * them elsewhere (home, the app folder); a client that shares its workspace roots says it better.
 */
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { debug } from './log.js';

export class Workspace {
  private cached: Promise<string> | undefined;

  constructor(private readonly server: Server, private readonly launchCwd: string) {
    server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
      this.cached = undefined;
    });
  }

  cwd(): Promise<string> {
    this.cached ??= this.lookup();
    return this.cached;
  }

  private async lookup(): Promise<string> {
    if (!this.server.getClientCapabilities()?.roots) return this.launchCwd;
    try {
      const { roots } = await this.server.listRoots(undefined, { timeout: 1000 });
      const dirs = roots.filter((r) => r.uri.startsWith('file://')).map((r) => fileURLToPath(r.uri));
      // Several roots: the one holding the launch directory, else the first.
      const dir = dirs.find((d) => this.launchCwd === d || this.launchCwd.startsWith(d.endsWith(sep) ? d : d + sep)) ?? dirs[0];
      return dir ?? this.launchCwd;
    } catch (err) {
      debug('roots/list failed; using the launch directory:', (err as Error).message);
      this.cached = undefined; // ask again next time
      return this.launchCwd;
    }
  }
}
