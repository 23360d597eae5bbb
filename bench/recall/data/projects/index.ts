/** The project histories of the recall benchmark, one file per kind of project. */
import type { ProjectHistory } from '../dsl.js';
import { LEDGER_API } from './ledger-api.js';

export const PROJECTS: ProjectHistory[] = [LEDGER_API];
