import { healthRoute } from './health.js';
import { eventsRoute } from './events.js';
import { contextRoute, observationsRoute, searchRoute, timelineRoute } from './read.js';
import { memoryRoute } from './memory.js';
import { shutdownRoute, statsRoute, viewerLinkRoute } from './admin.js';
import {
  applyTombstonesRoute, forgetRoute, importRoute, listPinsRoute, listTombstonesRoute, pinRoute, purgeRoute, unpinRoute,
} from './forget.js';
import { historyStartRoute, historyStatusRoute, historyStopRoute } from './history.js';
import { syncNowRoute, syncStatusRoute } from './sync.js';
import type { Route } from './types.js';

export const ROUTES: readonly Route[] = [
  healthRoute, eventsRoute, contextRoute, searchRoute, timelineRoute, observationsRoute, memoryRoute, shutdownRoute, statsRoute, viewerLinkRoute,
  forgetRoute, purgeRoute, pinRoute, unpinRoute, listPinsRoute, listTombstonesRoute, applyTombstonesRoute, importRoute,
  historyStartRoute, historyStatusRoute, historyStopRoute,
  syncStatusRoute, syncNowRoute,
];
