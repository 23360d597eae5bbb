import type { HostApiSpec } from '../pi-base/api-spec.js';

/**
 * OMP 18.3.4: checked against the extension types it publishes (src/extensibility/extensions,
 * shared-events) with the unit harness; OMP needs Bun and was not run end to end here.
 */
export const OMP_API: HostApiSpec = {
  host: 'omp',
  label: 'OMP',
  packages: ['@oh-my-pi/pi-coding-agent'],
  proven: ['18.3.4'],
  lines: ['18.3'],
};
