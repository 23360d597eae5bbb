import type { HostApiSpec } from '../pi-base/api-spec.js';

/** Pi 0.73.1: the fixture run and the end-to-end test (`pi -p` against a scripted model server). */
export const PI_API: HostApiSpec = {
  host: 'pi',
  label: 'Pi',
  packages: ['@mariozechner/pi-coding-agent'],
  proven: ['0.73.1'],
  lines: ['0.73'],
};
