/**
 * Words developers use for the same thing. A question asked a week later rarely repeats the words
 * of the session that answers it ("bills" for invoices, "RAM" for memory, "throttled" for a rate
 * limit), so a query word also matches the other words of its group. Written as general software
 * vocabulary, not from any one project (docs/search.md gives what it gains on bench:recall).
 *
 * A line `a, b, c` makes its words equivalent. A line `head: a, b, c` is a kind and its
 * instances: the head finds every instance and each instance finds the head (a question about
 * "the database" finds the Postgres session), but instances do not find each other.
 * Words are compared by their English stem; a member may be a phrase of a few words. Lines
 * starting with # name the part of the vocabulary that follows.
 */
import { stemmer } from 'stemmer';

const GROUPS = `
# failures and fixes
bug, defect, fault, glitch
error, exception, failure, traceback, stacktrace, stack trace
crash, segfault, panic, abort
fix, repair, patch, workaround, hotfix, resolve
broken, failing, fails, red, broke
slow, sluggish, lag, latency, laggy, janky, jank
fast, speedup, quicker, snappy, smooth
hang, stall, stuck, freeze, frozen, hung
flaky, intermittent, sporadic, nondeterministic, randomly
timeout, deadline, timed out
retry, retries, backoff
# resources
memory, ram, heap, rss
oom, out of memory, oomkilled
disk, disk space
cpu, processor
battery, drain, power usage, energy, wakelock
bandwidth, data usage
# lifecycle
start, startup, boot, launch, cold start
stop, shutdown, terminate, kill
# tests, builds, releases
test, spec, suite
test runner: jest, vitest, pytest, mocha, junit
end to end, e2e, ui test, user journey, user flow
e2e tool: detox, maestro, playwright, cypress, appium, selenium
build, compile, bundle
transpile, babel, swc
ci, pipeline, workflow, runner
ci service: github actions, gitlab ci, circleci, jenkins, buildkite
deploy, deployment, release, rollout, ship, publish
rollback, revert, undo
config, configuration, settings, options
setup, onboarding, bootstrap, provision, new laptop, new machine
env, environment variable, dotenv
# access
secret, credential, token, password, api key
login, sign in, signin, log in, authenticate, authentication, auth
logout, sign out
permission, authorization, access, forbidden, 403
unauthorized, 401
customer, client, tenant, account
user, users, people
partner, integrator, third party
# money
bill, invoice, billing
charge, payment
payment provider: stripe, paypal, adyen, braintree
refund, chargeback
money, currency, monies, amount
exchange rate, fx, conversion rate
rounding, round, penny, cent, cents, precision
total, totals, sum, aggregate, revenue
shop, storefront, ecommerce, shopify
# time
date, timezone, time zone, utc, clock
schedule, cron, scheduled, periodic
nightly, overnight, every night
daily, per day
backfill, rerun, re run, catch up, catchup
# messages
email, mail, smtp
notification, alert, notify
push notification, push, apns, fcm
webhook, callback
# observability
log, logs, logging
error reports, error tracking, crash reports
monitoring, metrics, observability, telemetry
error tracker: sentry, bugsnag, rollbar, crashlytics
source map, sourcemap, symbolication, minified
docs, documentation, readme, reference
api docs, swagger, openapi, redoc
endpoint, route, handler
rate limit, throttle, throttled, throttling, quota, too many requests, 429
# text
font, glyph, typeface
encoding, charset, utf8, unicode, garbled, mojibake, garbage
locale, i18n, internationalization, localization, l10n, intl, translation
# infrastructure
container, docker, image, dockerfile
kubernetes, k8s, pod, cluster
server, host, machine, box, instance, vm
scale, scaling, autoscale, replicas, more machines
connection, socket
connection pool: pgbouncer, pooler, max connections
port, address in use, eaddrinuse
dns, hostname, domain
certificate, tls, ssl, https
cdn, edge cache
host platform: fly io, heroku, vercel, railway, netlify
# dependencies and versions
upgrade, bump, update, newer version
dependency, package, library, lib
package manager: npm, pnpm, yarn, poetry, pip, uv
lockfile, lock file
pin, pinned, pinning
runtime: node, nodejs, bun, deno, python, ruby, jvm
sdk, framework version, platform version, framework release
api level, target sdk, targetsdkversion, sdk level, platform level
# data
database, db, datastore
database: postgres, postgresql, mysql, sqlite, mariadb, mongodb, dynamodb
cache, memoize
cache server: redis, memcached
queue, job queue, background job
migration, migrate, schema change, alter table
query, sql
warehouse, data warehouse, data lake, lake
dataframe, data frame
dataframe library: pandas, polars, spark
scheduler, orchestrator
orchestrator: airflow, dagster, prefect
transformation: dbt, sql model
incremental, partial rebuild
partition, partitioned, partitioning
bucket, object storage, blob
object storage: s3, gcs, r2, minio
# mobile
mobile, app
ios, iphone, ipad
android, apk, aab
app store, testflight, play store, google play, store review
keyboard, soft keyboard, on screen keyboard, on screen keys
text input, text field, typing area, input field
map, maps, mapview
location, gps, geolocation
offline, no connection, no network
image, photo, picture
list, flatlist, flashlist, virtualized list, recyclerview
scroll, scrolling
screen, screens, navigation, navigator
state management: redux, zustand, mobx, jotai, recoil, global state
over the air, ota, eas update, codepush, expo updates
accessibility, a11y, screen reader, voiceover, talkback, blind
bundle size, app size, download size, binary size
signature, autograph
# code and review
lint, linter, linting
linter: eslint, ruff, flake8, pylint, biome
format, formatter, formatting
formatter: prettier, black
typecheck, type check, type checking
type checker: tsc, mypy, pyright
git hook: husky, pre-commit, lefthook
pull request, pr, merge request, mr
review, reviewer, approval
fork, forks, outside contributors, external contributors
feature flag, feature toggle, toggle, flag
feature flag service: launchdarkly, unleash, flagsmith, growthbook
# what was done
export, download, dump
import, upload, ingest
pdf, document
render, rendering
search, lookup, find
parallel, concurrent, concurrency, simultaneous
race, race condition
duplicate, duplicated, twice, repeated, double, idempotent, idempotency, dedupe
validate, validation, validator
validation library: zod, pydantic, joi, yup, ajv
vulnerability, vulnerable, cve, security issue
audit, pentest, security review
leak, leaked, exposed, exposure
isolation, isolated, cross tenant
decide, decided, decision, agree, agreed, chose, chosen, choose, pick, picked, settle, settled
switch, replace, move to, migrate to
convention, standard, rule, guideline, policy
prefer, preference, preferred
new, upcoming, future, greenfield
old, legacy, deprecated, outdated
remove, delete, drop
large, big, huge, heavy
small, tiny, smaller, shrink, reduce
`;

/** Stem of each word of a member, joined: the key a query word is looked up by. */
const keyOf = (phrase: string): string => phrase.split(/\s+/).map((w) => stemmer(w)).join(' ');

function addTo(map: Map<string, string[][]>, from: string, to: string): void {
  const key = keyOf(from);
  if (key === keyOf(to)) return;
  const list = map.get(key) ?? [];
  const tokens = to.split(/\s+/);
  if (!list.some((t) => t.join(' ') === tokens.join(' '))) list.push(tokens);
  map.set(key, list);
}

function buildThesaurus(text: string): Map<string, string[][]> {
  const map = new Map<string, string[][]>();
  for (const raw of text.split('\n')) {
    const line = raw.trim().toLowerCase();
    if (!line || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon >= 0) {
      const head = line.slice(0, colon).trim();
      const members = line.slice(colon + 1).split(',').map((m) => m.trim()).filter(Boolean);
      for (const m of members) (addTo(map, head, m), addTo(map, m, head));
      continue;
    }
    const words = line.split(',').map((m) => m.trim()).filter(Boolean);
    for (const a of words) for (const b of words) addTo(map, a, b);
  }
  return map;
}

/** Alternatives a word gets at most (a group's first members are its closest words). */
const MAX_PER_WORD = 8;

let thesaurus: Map<string, string[][]> | undefined;

/** What else a query word (or two adjacent words) may be written as: token lists, folded. */
export function synonymsOf(folded: readonly string[]): readonly string[][] {
  thesaurus ??= buildThesaurus(GROUPS);
  return (thesaurus.get(folded.map((w) => stemmer(w)).join(' ')) ?? []).slice(0, MAX_PER_WORD);
}
