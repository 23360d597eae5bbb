/**
 * Runs a CommonJS bundle through a V8 code cache kept next to it, as node 22's
 * module.enableCompileCache does (node 20 has nothing of the kind). The hook starts on every tool
 * call, and compiling its bundle and the functions one run needs costs about a third of its own
 * time (measured: ~5–9 ms of ~25 ms); with the cache V8 deserializes them instead.
 *
 * A cache is used only for the exact source it was made from (the file holds a copy), and only
 * when intact. V8 refuses a cache from another node version, with other flags or cut short, but
 * does not check the content: a damaged one aborts the process. The file therefore holds the code
 * twice, and the copies must match byte for byte (a checksum costs milliseconds on node 20, this
 * comparison microseconds). Whenever the cache is not used, the bundle compiles as usual and the
 * end of the run writes a new cache.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** Cache file: [source length][code length] (uint32 LE), then the source, the code, the code again. */
const HEADER_BYTES = 8;

interface CachedBundle<T> {
  exports: T;
  /** The bundle was compiled from the cache. */
  fromCache: boolean;
  /**
   * Writes the cache unless a valid one was used. Call it at the end of a run: the cache then
   * also holds the functions the run compiled. Never throws (a read-only install runs without).
   */
  save(): void;
}

function readCache(cacheFile: string, source: Buffer): Buffer | undefined {
  try {
    const data = readFileSync(cacheFile);
    if (data.length < HEADER_BYTES) return undefined;
    const sourceLength = data.readUInt32LE(0);
    const codeLength = data.readUInt32LE(4);
    const code = HEADER_BYTES + sourceLength;
    if (sourceLength !== source.length || codeLength === 0 || data.length !== code + 2 * codeLength) return undefined;
    if (!data.subarray(HEADER_BYTES, code).equals(source)) return undefined;
    const first = data.subarray(code, code + codeLength);
    return first.equals(data.subarray(code + codeLength)) ? first : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the cache atomically; `makeCode` runs only once the file could be created. */
function writeCache(cacheFile: string, source: Buffer, makeCode: () => Buffer): void {
  // Hooks run concurrently: each writes its own temp file and renames it into place.
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  let fd: number;
  try {
    fd = openSync(tmp, 'w');
  } catch {
    return; // a read-only install runs without the cache
  }
  try {
    const code = makeCode();
    const header = Buffer.alloc(HEADER_BYTES);
    header.writeUInt32LE(source.length, 0);
    header.writeUInt32LE(code.length, 4);
    writeFileSync(fd, Buffer.concat([header, source, code, code]));
    // Only a complete file may take the cache's name.
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, cacheFile);
  } catch {
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
    try {
      unlinkSync(tmp);
    } catch {
      // Already gone.
    }
  }
}

/** Loads `file` like require() would, through the cache at `cacheFile`. */
export function loadBundle<T>(file: string, cacheFile: string): CachedBundle<T> {
  const source = readFileSync(file);
  const cachedData = readCache(cacheFile, source);
  // The wrapper node puts around a CommonJS module, on the source's first line: stack traces keep their lines.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source.toString('utf8')}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData });
  const module = { exports: {} as T };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  const fromCache = !!cachedData && !script.cachedDataRejected;
  return {
    exports: module.exports,
    fromCache,
    save() {
      if (!fromCache) writeCache(cacheFile, source, () => script.createCachedData());
    },
  };
}
