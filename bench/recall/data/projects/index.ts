/** The project histories of the recall benchmark, one file per kind of project. */
import type { ProjectHistory } from '../dsl.js';
import { LEDGER_API } from './ledger-api.js';
import { MOBILE_APP } from './mobile-app.js';
import { PIPELINE_ETL } from './pipeline-etl.js';
import { PLATFORM_INFRA } from './platform-infra.js';

export const PROJECTS: ProjectHistory[] = [LEDGER_API, PIPELINE_ETL, MOBILE_APP, PLATFORM_INFRA];
