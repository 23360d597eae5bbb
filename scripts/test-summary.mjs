// Prints the test run's totals as one plain closing line ("N passed, N failed, N skipped"), and
// the files that failed outside any test (a failing beforeAll, such as a missing Chromium or
// PostgreSQL server, fails the file and reports its tests as skipped).
import { readFileSync } from 'node:fs';

const r = JSON.parse(readFileSync('.test-results.json', 'utf8'));
const failedFiles = r.testResults.filter((f) => f.status === 'failed'
  && f.assertionResults.every((t) => t.status !== 'failed')).length;
const files = failedFiles ? `, ${failedFiles} file${failedFiles === 1 ? '' : 's'} failed outside tests` : '';
console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped${files}`);
