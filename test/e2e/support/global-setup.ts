/**
 * Gives the test run one id (conformance results of one run are combined, never mixed with an
 * older run's) and, when the run is over, writes the host matrix from what the run proved.
 */
import type { TestProject } from 'vitest/node';
import { writeHostMatrix } from './host-matrix.js';

declare module 'vitest' {
  export interface ProvidedContext {
    hostRunId: string;
  }
}

export default function setup(project: TestProject): () => void {
  const runId = `${new Date().toISOString()}#${process.pid}`;
  project.provide('hostRunId', runId);
  return () => {
    const out = writeHostMatrix(runId);
    if (out) console.log(`host matrix: ${out}`);
  };
}
