/** The database is locked by another connection: transient, the caller retries or spools. */
export function isBusyError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && (code === 'store_busy' || /^SQLITE_(BUSY|LOCKED)/.test(code));
}
