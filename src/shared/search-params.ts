/** A search as the worker's `GET /api/search` takes it (the MCP server, the CLI and the plugins ask the same way). */
import type { SearchQuery } from '../store/types.js';

export function searchParams(q: SearchQuery): Record<string, string | number | undefined> {
  return {
    q: q.query, project: q.project, widen: q.widen ? 1 : undefined, host: q.host, type: q.type, since: q.since, until: q.until,
    file: q.file, session: q.hostSessionId, sessionHost: q.sessionHost, limit: q.limit, offset: q.offset,
  };
}
