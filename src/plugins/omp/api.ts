import type { HostApiSpec } from '../pi-base/api-spec.js';

/**
 * OMP 18.2.3 (on Bun 1.4.5, both from the npm registry): run end to end (`omp -p` against a
 * scripted model server). 18.3.4, the newest release, cannot be installed from the registry (it
 * pins @oh-my-pi/omp-stats@18.3.4, which was never published), so its line is known from its
 * published extension types only.
 */
export const OMP_API: HostApiSpec = {
  host: 'omp',
  label: 'OMP',
  packages: ['@oh-my-pi/pi-coding-agent'],
  proven: ['18.2.3'],
  checked: ['18.3.4'],
  lines: ['18.2', '18.3'],
};
