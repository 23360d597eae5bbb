// Prints the test run's totals as one plain closing line ("N passed, N failed, N skipped").
import { readFileSync } from 'node:fs';

const r = JSON.parse(readFileSync('.test-results.json', 'utf8'));
console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
