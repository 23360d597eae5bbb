/** Every edit is read back with the format's parser before it may be written. */
import { ConfigConflictError, ConfigParseError } from './errors.js';
import { deepEqual } from './match.js';

export function verifyEdit(file: string, format: string, reparse: () => unknown, expected: unknown): void {
  let actual: unknown;
  try {
    actual = reparse();
  } catch (e) {
    if (!(e instanceof ConfigParseError)) throw e;
    throw new ConfigConflictError(file, `${file}: our change would leave invalid ${format} (${e.reason}); nothing was written`,
      'The surrounding entries use a form we do not edit (an inline table or dotted keys, say): rewrite them as plain sections by hand, then run the command again.');
  }
  if (!deepEqual(actual, expected)) {
    throw new ConfigConflictError(file, `${file}: the edited ${format} did not read back as intended; nothing was written`, 'Report this with the file attached; edit the file by hand meanwhile.');
  }
}
