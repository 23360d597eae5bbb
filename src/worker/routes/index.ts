import { healthRoute } from './health.js';
import { eventsRoute } from './events.js';
import { contextRoute, observationsRoute, searchRoute, timelineRoute } from './read.js';
import { memoryRoute } from './memory.js';
import { shutdownRoute, statsRoute } from './admin.js';
import {
  applyTombstonesRoute, forgetRoute, importRoute, listPinsRoute, listTombstonesRoute, pinRoute, purgeRoute, unpinRoute,
} from './forget.js';
import { syncNowRoute, syncStatusRoute } from './sync.js';
import type { Route } from './types.js';

export const ROUTES: readonly Route[] = [
  healthRoute, eventsRoute, contextRoute, searchRoute, timelineRoute, observationsRoute, memoryRoute, shutdownRoute, statsRoute,
  forgetRoute, purgeRoute, pinRoute, unpinRoute, listPinsRoute, listTombstonesRoute, applyTombstonesRoute, importRoute,
  syncStatusRoute, syncNowRoute,
];
