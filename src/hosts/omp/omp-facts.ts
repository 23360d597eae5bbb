/** OMP (oh-my-pi): a native extension captures and recalls. */
import { defineHost } from '../host-facts.js';

export const ompFacts = defineHost({ id: 'omp', label: 'OMP (oh-my-pi)', aliases: ['oh-my-pi'], tools: { find: 'Glob', python: 'Bash' } });
