/** ledger-api: a TypeScript invoicing service (Fastify, Postgres via Kysely, pnpm, vitest, Fly.io). */
import type { Rng } from '../../rng.js';
import { ed, gr, lines, rd, say, sh, turn, wr, type Episode, type ProjectHistory } from '../dsl.js';
import { diffStatOf, exploreSteps, noiseTemplates, warmupTemplates, type SourceFile, type Vocab } from '../noise.js';

const FILES: SourceFile[] = [
  {
    path: 'src/billing/totals.ts',
    content: lines(
      "import type { LineItem } from './types.js';",
      '',
      'export function invoiceTotal(items: LineItem[], taxRate: number): number {',
      '  const net = items.reduce((sum, i) => sum + i.unitPrice * i.quantity, 0);',
      '  return net + net * taxRate;',
      '}',
    ),
    about: 'totals.ts computes an invoice total: it sums unit price times quantity over the line items and adds tax on the net amount. Everything downstream (PDFs, exports, payments) reads totals from here.',
  },
  {
    path: 'src/routes/invoices.ts',
    content: lines(
      "import type { FastifyInstance } from 'fastify';",
      "import { listInvoices, getInvoice } from '../db/invoices.js';",
      '',
      'export async function invoiceRoutes(app: FastifyInstance) {',
      "  app.get('/invoices', async (req) => listInvoices(req.tenant.id, req.query));",
      "  app.get('/invoices/:id', async (req) => getInvoice(req.tenant.id, req.params.id));",
      '}',
    ),
    about: 'invoices.ts registers the invoice routes on the Fastify app: GET /invoices lists the tenant\'s invoices with paging, GET /invoices/:id returns one. Tenant scoping comes from req.tenant, set by the auth plugin.',
  },
  {
    path: 'src/plugins/auth.ts',
    content: lines(
      "import fp from 'fastify-plugin';",
      "import { verifyToken } from '../auth/jwt.js';",
      '',
      'export default fp(async (app) => {',
      "  app.decorateRequest('tenant', null);",
      "  app.addHook('onRequest', async (req) => {",
      "    const token = req.headers.authorization?.replace(/^Bearer /, '');",
      '    req.tenant = await verifyToken(token);',
      '  });',
      '});',
    ),
    about: 'auth.ts is a Fastify plugin that runs on every request: it takes the bearer token from the Authorization header, verifies it and puts the tenant on the request. Routes rely on req.tenant for scoping.',
  },
  {
    path: 'src/db/invoices.ts',
    content: lines(
      "import { db } from './client.js';",
      '',
      'export function listInvoices(tenantId: string, q: { limit?: number; cursor?: string }) {',
      "  return db.selectFrom('invoices').selectAll().where('tenant_id', '=', tenantId)",
      "    .orderBy('created_at', 'desc').limit(q.limit ?? 50).execute();",
      '}',
    ),
    about: 'db/invoices.ts holds the Kysely queries for invoices; listInvoices pages through a tenant\'s invoices newest first, 50 at a time by default.',
  },
  {
    path: 'src/config.ts',
    content: lines(
      "import { z } from 'zod';",
      '',
      'export const config = z.object({',
      '  DATABASE_URL: z.string().url(),',
      '  PORT: z.coerce.number().default(8080),',
      "  LOG_LEVEL: z.enum(['debug', 'info', 'warn']).default('info'),",
      '}).parse(process.env);',
    ),
    about: 'config.ts parses the environment once at start with zod: DATABASE_URL is required, PORT defaults to 8080 and LOG_LEVEL to info. A bad variable stops the process at boot instead of failing later.',
  },
  {
    path: 'src/jobs/reminders.ts',
    content: lines(
      "import { db } from '../db/client.js';",
      "import { sendMail } from '../mail.js';",
      '',
      'export async function sendOverdueReminders(now = new Date()) {',
      "  const overdue = await db.selectFrom('invoices').selectAll().where('due_at', '<', now).where('status', '=', 'open').execute();",
      '  for (const inv of overdue) await sendMail(inv.customer_email, "overdue", inv);',
      '}',
    ),
    about: 'reminders.ts is the nightly job that finds open invoices past their due date and mails the customer an overdue reminder, one mail per invoice.',
  },
];

const TEST_FILES = [
  'src/billing/totals.test.ts', 'src/billing/due-date.test.ts', 'src/billing/stripe-events.test.ts', 'src/routes/invoices.test.ts',
  'src/routes/customers.test.ts', 'src/routes/webhooks.test.ts', 'src/routes/exports.test.ts', 'src/auth/jwt.test.ts',
  'src/auth/api-keys.test.ts', 'src/pdf/render.test.ts', 'src/jobs/reminders.test.ts', 'src/tenants/settings.test.ts',
  'src/fx/ecb.test.ts', 'src/db/search.test.ts', 'src/plugins/rate-limit.test.ts', 'src/config.test.ts',
];

function vitestOut(rng: Rng, n: number): string {
  const per = TEST_FILES.map(() => 1);
  for (let left = n - per.length; left > 0; left--) per[rng.int(0, per.length - 1)]++;
  return lines(
    '',
    ' RUN  v2.1.4 /home/dev/projects/ledger-api',
    '',
    ...TEST_FILES.map((f, i) => ` ✓ ${f} (${per[i]} tests) ${rng.int(4, 900)}ms`),
    '',
    ` Test Files  ${TEST_FILES.length} passed (${TEST_FILES.length})`,
    `      Tests  ${n} passed (${n})`,
    `   Start at  ${String(rng.int(8, 18)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}`,
    `   Duration  ${rng.int(3, 9)}.${rng.int(10, 99)}s (transform ${rng.int(300, 900)}ms, setup ${rng.int(100, 400)}ms, collect ${rng.int(900, 3000)}ms, tests ${rng.int(2000, 6000)}ms)`,
  );
}

const VOCAB: Vocab = {
  testCmd: 'pnpm test',
  testPass: vitestOut,
  testFail: (rng, n, name, file) => lines(
    '',
    ' RUN  v2.1.4 /home/dev/projects/ledger-api',
    '',
    ` ❯ ${file} (3 tests | 1 failed) ${rng.int(10, 50)}ms`,
    `   × ${name}`,
    '     → expected null to be undefined',
    '',
    ` Test Files  1 failed | ${Math.round(n / 9)} passed`,
    `      Tests  1 failed | ${n - 1} passed (${n})`,
  ),
  testCount: [180, 240],
  lintCmd: 'pnpm lint',
  lintFail: (file, rng) => {
    const count = rng.int(1, 4);
    const out = [`/home/dev/projects/ledger-api/${file}`];
    for (let i = 0; i < count; i++) out.push(`  ${rng.int(2, 60)}:${rng.int(1, 30)}  error  ${rng.pick(["'req' is defined but never used  @typescript-eslint/no-unused-vars", 'Unexpected any. Specify a different type  @typescript-eslint/no-explicit-any', "Missing return type on function  @typescript-eslint/explicit-function-return-type"])}`);
    out.push('', `✖ ${count} problem${count > 1 ? 's' : ''} (${count} error${count > 1 ? 's' : ''}, 0 warnings)`);
    return { output: out.join('\n'), count };
  },
  lintOk: '> ledger-api@1.8.0 lint /home/dev/projects/ledger-api\n> eslint . --max-warnings 0\n',
  installCmd: () => 'pnpm install',
  installOut: (rng) => `Lockfile is up to date, resolution step is skipped\nPackages: +${rng.int(1, 9)} -${rng.int(1, 9)}\nProgress: resolved ${rng.int(600, 700)}, reused ${rng.int(590, 690)}, downloaded ${rng.int(1, 9)}, added ${rng.int(1, 9)}, done\nDone in ${rng.int(2, 9)}.${rng.int(1, 9)}s`,
  manifest: 'package.json',
  manifestLine: (dep, v) => `    "${dep}": "^${v}",`,
  deps: [
    { name: 'fastify', from: '4.28.1', to: '4.29.0' },
    { name: 'kysely', from: '0.27.3', to: '0.27.4' },
    { name: 'zod', from: '3.23.6', to: '3.23.8' },
    { name: 'pino', from: '9.3.2', to: '9.4.0' },
    { name: 'vitest', from: '2.0.5', to: '2.1.4' },
    { name: 'stripe', from: '16.2.0', to: '16.12.0' },
  ],
  files: FILES,
  testFor: (f) => ({
    path: f.path.replace(/\.ts$/, '.test.ts'),
    body: (n) => lines("import { describe, it, expect } from 'vitest';", '', `describe('${f.path.split('/').pop()}', () => {`, ...Array.from({ length: n }, (_, i) => `  it('case ${i + 1}', () => { expect(true).toBe(true); });`), '});'),
  }),
  expectationFix: ['toBe(undefined)', 'toBe(null)'],
  renames: [
    { from: 'getInvoice', to: 'findInvoice', files: ['src/db/invoices.ts', 'src/routes/invoices.ts', 'src/jobs/reminders.ts'] },
    { from: 'tenantCtx', to: 'tenantContext', files: ['src/plugins/auth.ts', 'src/routes/invoices.ts'] },
    { from: 'calcTotal', to: 'invoiceTotal', files: ['src/billing/totals.ts', 'src/routes/invoices.ts', 'src/pdf/render.ts'] },
  ],
  diffStat: diffStatOf(FILES),
  asides: [
    { q: 'what is the difference between interface and type in TypeScript, in two sentences?', a: 'Interfaces can be reopened and merged and are meant for object shapes; type aliases cannot be reopened but can name unions, tuples and mapped types. For plain object shapes either works.', fact: 'interface and type' },
    { q: 'how do I undo my last local commit but keep the changes?', a: 'Run `git reset --soft HEAD~1`: the commit is gone and its changes stay staged.', fact: 'undo my last local commit' },
    { q: 'is there a quick way to pretty-print JSON in the terminal?', a: 'Pipe it through `jq .`, or `python3 -m json.tool` where jq is not installed.', fact: 'pretty-print JSON' },
  ],
};

const EPISODES: Episode[] = [
  {
    id: 'husky-pnpm',
    day: 0,
    turns: [turn(
      'set up a pre-commit hook that runs lint and typecheck on staged files. oh and we use pnpm here, not npm — please don\'t create a package-lock.json',
      [
        rd('package.json', '{\n  "name": "ledger-api",\n  "packageManager": "pnpm@9.12.1",\n  "scripts": {\n    "lint": "eslint . --max-warnings 0",\n    "typecheck": "tsc --noEmit"\n  }\n}'),
        sh('pnpm add -D husky lint-staged', 'Packages: +24\nProgress: resolved 642, reused 618, downloaded 24, added 24, done\ndevDependencies:\n+ husky 9.1.6\n+ lint-staged 15.2.10\nDone in 4.1s'),
        sh('pnpm exec husky init', ''),
        wr('.husky/pre-commit', 'pnpm exec lint-staged\npnpm typecheck\n'),
        ed('package.json', '"typecheck": "tsc --noEmit"\n  }', '"typecheck": "tsc --noEmit"\n  },\n  "lint-staged": { "*.ts": "eslint --max-warnings 0" }'),
        say('Noted: pnpm only. I added the hooks with pnpm so the only lockfile stays pnpm-lock.yaml.'),
        sh('git commit --allow-empty -m "test hook"', '✔ Preparing lint-staged...\n✔ Running tasks for staged files...\n[main 4f1c2ab] test hook'),
      ],
      'The pre-commit hook runs lint-staged (eslint on staged .ts files) and the typecheck; installed with pnpm, no package-lock.json.',
    )],
    facts: ['pre-commit hook', 'lint-staged'],
    q: [
      { ask: 'which package manager does this repo use?', kw: 'pnpm package manager lockfile', style: 'lit', also: ['ci-runner-pnpm'] },
      { ask: 'what runs before every git commit here?', kw: 'commit hook checks', style: 'para' },
    ],
  },
  {
    id: 'zod-validation',
    day: 3,
    turns: [turn(
      'add a POST /customers endpoint. new request validation goes through zod schemas from now on, no more hand-written if-checks',
      [
        rd('src/routes/customers.ts', "export async function customerRoutes(app) {\n  app.get('/customers', async (req) => listCustomers(req.tenant.id));\n}"),
        wr('src/schemas/customer.ts', "import { z } from 'zod';\n\nexport const CreateCustomer = z.object({\n  name: z.string().min(1).max(200),\n  email: z.string().email(),\n  vatId: z.string().regex(/^[A-Z]{2}[0-9A-Z]{2,12}$/).optional(),\n});"),
        ed('src/routes/customers.ts', "  app.get('/customers'", "  app.post('/customers', async (req, reply) => {\n    const body = CreateCustomer.parse(req.body);\n    reply.code(201).send(await createCustomer(req.tenant.id, body));\n  });\n  app.get('/customers'"),
        say('A ZodError currently surfaces as a 500. I am adding an error handler that maps it to a 400 with the issue list, so every schema-validated route behaves the same.'),
        ed('src/app.ts', 'app.register(customerRoutes);', "app.setErrorHandler((err, req, reply) => {\n  if (err instanceof ZodError) return reply.code(400).send({ error: 'invalid_body', issues: err.issues });\n  reply.send(err);\n});\napp.register(customerRoutes);"),
        sh('pnpm test src/routes/customers.test.ts', ' ✓ src/routes/customers.test.ts (7 tests) 412ms\n\n Test Files  1 passed (1)\n      Tests  7 passed (7)'),
      ],
      'POST /customers is in, validated by the CreateCustomer zod schema; zod errors now answer 400 with the issues for every route.',
    )],
    facts: ['POST /customers', 'CreateCustomer'],
    q: [
      { ask: 'how are request bodies supposed to be validated for new endpoints?', kw: 'validate request bodies', style: 'para' },
      { ask: 'why did a ZodError come back as 500 and what did we change?', kw: 'ZodError 400 setErrorHandler', style: 'lit' },
    ],
  },
  {
    id: 'ci-runner-pnpm',
    day: 6,
    turns: [turn(
      'CI has been red since this morning, every job dies during install. GitHub moved us to the new ubuntu-24.04 runners. can you dig in?',
      [
        sh('gh run view 11873402 --log-failed', lines(
          'install\tRun pnpm install --frozen-lockfile',
          'install\t ERR_PNPM_BAD_PM_VERSION  This project is configured to use v9.12.1 of pnpm. Your current pnpm is v10.0.0',
          'install\t',
          'install\tIf you want to bypass this version check, you can set the "package-manager-strict" configuration to "false"',
          'install\tError: Process completed with exit code 1.',
        ), 0),
        rd('.github/workflows/ci.yml', lines('jobs:', '  test:', '    runs-on: ubuntu-latest', '    steps:', '      - uses: actions/checkout@v4', '      - run: pnpm install --frozen-lockfile', '      - run: pnpm test')),
        say('Found it: the new runner image ships pnpm 10 preinstalled, and our packageManager field pins 9.12.1, so pnpm refuses to run. The old image had no global pnpm and corepack picked the pinned one.'),
        ed('.github/workflows/ci.yml', '      - run: pnpm install --frozen-lockfile', '      - uses: pnpm/action-setup@v4\n      - uses: actions/setup-node@v4\n        with:\n          node-version-file: .nvmrc\n          cache: pnpm\n      - run: pnpm install --frozen-lockfile'),
        sh('git push origin fix/ci-pnpm && gh run watch', '✓ test  in 2m41s\n✓ Run CI (fix/ci-pnpm) completed with success'),
      ],
      'CI is green again: the workflow now installs pnpm through pnpm/action-setup, which reads the version from packageManager.',
    )],
    facts: ['CI has been red', 'pnpm/action-setup'],
    q: [
      { ask: 'how did we fix the failing build on the new runners?', kw: 'new runners build failing', style: 'para' },
      { ask: 'why did pnpm install fail with ERR_PNPM_BAD_PM_VERSION in CI?', kw: 'ERR_PNPM_BAD_PM_VERSION packageManager', style: 'lit' },
    ],
  },
  {
    id: 'stripe-raw-body',
    day: 9,
    turns: [
      turn(
        'stripe webhooks are failing in prod since the fastify upgrade, dashboard shows 400s on every delivery',
        [
          sh('fly logs -a ledger-api | grep webhooks | tail -5', lines(
            '2026-08-14T09:12:03Z app[7811] {"level":50,"msg":"webhook rejected","err":"No signatures found matching the expected signature for payload. Are you passing the raw request body you received from Stripe?"}',
            '2026-08-14T09:12:41Z app[7811] {"level":50,"msg":"webhook rejected","err":"No signatures found matching the expected signature for payload."}',
          )),
          rd('src/routes/webhooks.ts', "app.post('/webhooks/stripe', async (req, reply) => {\n  const event = stripe.webhooks.constructEvent(JSON.stringify(req.body), req.headers['stripe-signature'], secret);\n  await handleStripeEvent(event);\n  reply.send({ received: true });\n});"),
          say('The cause is that the signature is computed over the exact bytes Stripe sent, and we verify against JSON.stringify of the parsed body. Key order and whitespace differ after the parser, so verification can never match. The route needs the raw Buffer.'),
          ed('src/routes/webhooks.ts', "app.post('/webhooks/stripe', async (req, reply) => {\n  const event = stripe.webhooks.constructEvent(JSON.stringify(req.body),", "app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => done(null, body));\napp.post('/webhooks/stripe', async (req, reply) => {\n  const event = stripe.webhooks.constructEvent(req.body as Buffer,"),
          sh('stripe trigger invoice.paid --forward-to localhost:8080/webhooks/stripe', 'Setting up fixture for: invoice.paid\nTrigger succeeded! Check dashboard for event details.\n--> invoice.paid [evt_1Pq8a2]\n<-- [200] POST http://localhost:8080/webhooks/stripe'),
        ],
        'Webhook deliveries verify again locally (200 on invoice.paid).',
      ),
      turn(
        'does that parser leak into the other routes?',
        [
          say('It would have: addContentTypeParser on the root instance applies everywhere. I moved the webhook route into its own encapsulated plugin so only /webhooks/stripe gets Buffers.'),
          ed('src/app.ts', 'app.register(webhookRoutes);', "app.register(webhookRoutes, { prefix: '/webhooks' }); // own context: raw-body parser stays inside"),
          sh('pnpm test', ' Test Files  23 passed (23)\n      Tests  204 passed (204)\n   Duration  6.12s'),
        ],
        'Only the webhook plugin parses JSON as a raw Buffer now; the other routes are unchanged and the suite passes.',
      ),
    ],
    facts: ['stripe webhooks are failing', 'Webhook deliveries verify again'],
    q: [
      { ask: 'why did stripe webhook signature verification fail?', kw: 'stripe webhook signature constructEvent', style: 'lit' },
      { ask: 'the payment provider callbacks kept getting rejected after an upgrade, what was wrong with them?', kw: 'payment callbacks rejected', style: 'para' },
      { ask: 'did the raw body change affect other routes?', kw: 'addContentTypeParser encapsulated plugin', style: 'lit', turn: 1 },
    ],
  },
  {
    id: 'invoice-rounding',
    day: 12,
    turns: [turn(
      'a customer says their invoice total is 1 cent more than the sum of the lines on the PDF. invoice INV-2026-0412',
      [
        sh("psql $DATABASE_URL -c \"select quantity, unit_price from line_items where invoice_id = 'INV-2026-0412'\"", ' quantity | unit_price\n----------+-----------\n        3 |     19.99\n        7 |      4.15\n        1 |    120.10\n(3 rows)'),
        rd('src/billing/totals.ts', FILES[0].content),
        sh("node -e \"console.log(3*19.99 + 7*4.15 + 120.10, (3*19.99 + 7*4.15 + 120.10) * 1.19)\"", '209.02 248.73379999999997'),
        say('So the total is computed in floating point on euro amounts and rounded only when the PDF renders, while each line is rounded on its own in the PDF. The sum of rounded lines and the rounded sum disagree by a cent. Money has to be integer minor units, with tax rounded per line, half to even.'),
        ed('src/billing/totals.ts', 'const net = items.reduce((sum, i) => sum + i.unitPrice * i.quantity, 0);\n  return net + net * taxRate;', 'const lines = items.map((i) => i.unitPriceCents * i.quantity);\n  const tax = lines.map((c) => roundHalfEven(c * taxRate));\n  return sum(lines) + sum(tax);'),
        sh('pnpm test src/billing', ' ✓ src/billing/totals.test.ts (14 tests) 22ms\n\n Test Files  1 passed (1)\n      Tests  14 passed (14)'),
      ],
      'Totals are now computed in integer cents with per-line tax rounded half to even; added a test with INV-2026-0412\'s lines.',
    )],
    facts: ['1 cent more', 'integer cents'],
    q: [
      { ask: 'why were some customer bills a penny off?', kw: 'bill penny off', style: 'para' },
      { ask: 'invoice total one cent more than the sum of lines on the PDF', kw: 'invoice total cent PDF', style: 'lit' },
    ],
  },
  {
    id: 'migration-index-lock',
    day: 15,
    turns: [turn(
      'the deploy has been stuck on the release command for 20 minutes and the api is timing out. help',
      [
        sh("psql $DATABASE_URL -c \"select pid, state, wait_event_type, left(query, 60) from pg_stat_activity where state <> 'idle'\"", '  pid  | state  | wait_event_type |                          left\n-------+--------+-----------------+--------------------------------------------------------\n 48211 | active | Lock            | CREATE INDEX invoices_customer_id_idx ON invoices (customer\n 48230 | active | Lock            | INSERT INTO invoices (id, tenant_id, customer_id, number, \n 48233 | active | Lock            | UPDATE invoices SET status = $1 WHERE id = $2'),
        say('The migration is running a plain CREATE INDEX on invoices, which takes a SHARE lock for the whole build: every insert and update on invoices waits behind it, hence the API timeouts. On a 40M-row table that takes a long time.'),
        sh('psql $DATABASE_URL -c "select pg_cancel_backend(48211)"', ' pg_cancel_backend\n-------------------\n t\n(1 row)'),
        rd('migrations/0042_invoice_customer_idx.ts', "export async function up(db) {\n  await sql`CREATE INDEX invoices_customer_id_idx ON invoices (customer_id)`.execute(db);\n}"),
        ed('migrations/0042_invoice_customer_idx.ts', 'export async function up(db) {\n  await sql`CREATE INDEX invoices_customer_id_idx', "export const config = { transaction: false }; // CONCURRENTLY cannot run inside a transaction\nexport async function up(db) {\n  await sql`CREATE INDEX CONCURRENTLY IF NOT EXISTS invoices_customer_id_idx"),
        sh('fly deploy', '==> Release command: pnpm migrate\n  migrated 0042_invoice_customer_idx (CONCURRENTLY, 6m12s)\n--> v214 deployed successfully'),
      ],
      'Cancelled the blocking index build, rewrote migration 0042 to CREATE INDEX CONCURRENTLY outside a transaction; v214 deployed without blocking writes.',
    )],
    facts: ['stuck on the release command', 'CREATE INDEX CONCURRENTLY'],
    q: [
      { ask: 'what made the release stall during the database schema change?', kw: 'release stalled schema change', style: 'para' },
      { ask: 'why did migration 0042 lock the invoices table?', kw: 'migration 0042 CONCURRENTLY', style: 'lit' },
    ],
  },
  {
    id: 'flaky-due-date-tz',
    day: 18,
    turns: [turn(
      'due-date.test.ts fails on CI maybe once a day, passes locally. flaky test, please find out why',
      [
        sh('gh run list --workflow ci.yml --status failure --limit 5 --json createdAt', '[{"createdAt":"2026-08-26T23:41:12Z"},{"createdAt":"2026-08-25T23:12:55Z"},{"createdAt":"2026-08-21T22:58:03Z"}]'),
        rd('src/billing/due-date.test.ts', "it('is due 14 days after issue', () => {\n  const issued = new Date();\n  expect(dueDate(issued).getDate()).toBe(new Date(Date.now() + 14 * 86400000).getDate());\n});"),
        say('Every failure is between 22:00 and 00:00 UTC. dueDate() works in the tenant time zone (Europe/Berlin) while the test compares with getDate() in the runner\'s UTC: within two hours of midnight the two are on different calendar days. The code is right; the test reads the clock.'),
        ed('src/billing/due-date.test.ts', "  const issued = new Date();", "  vi.setSystemTime(new Date('2026-08-26T23:30:00Z'));\n  const issued = new Date();"),
        ed('vitest.config.ts', 'test: {', "test: {\n    env: { TZ: 'UTC' },"),
        sh('pnpm test src/billing/due-date.test.ts', ' ✓ src/billing/due-date.test.ts (5 tests) 9ms\n\n      Tests  5 passed (5)'),
      ],
      'The due-date test no longer depends on the wall clock: fixed system time at 23:30 UTC and TZ=UTC for the suite.',
    )],
    facts: ['due-date.test.ts', 'fixed system time'],
    q: [
      { ask: 'why did the due date test fail intermittently on CI?', kw: 'due-date flaky setSystemTime TZ', style: 'lit' },
      { ask: 'a check only broke late in the evening, never during the day — what was going on?', kw: 'test fails late evening', style: 'para' },
    ],
  },
  {
    id: 'rate-limit',
    day: 20,
    turns: [turn(
      'partners are hammering the public API. add rate limiting, per API key, backed by redis so it works across instances',
      [
        sh('pnpm add @fastify/rate-limit ioredis', 'dependencies:\n+ @fastify/rate-limit 9.1.0\n+ ioredis 5.4.1\nDone in 3.2s'),
        wr('src/plugins/rate-limit.ts', "import rateLimit from '@fastify/rate-limit';\nimport Redis from 'ioredis';\n\nexport default async function (app) {\n  await app.register(rateLimit, {\n    max: 100,\n    timeWindow: '1 minute',\n    redis: new Redis(process.env.REDIS_URL),\n    keyGenerator: (req) => req.headers['x-api-key'] ?? req.ip,\n  });\n}"),
        say('Decision on the numbers: 100 requests per minute per API key, falling back to the client IP without a key. Over the limit the plugin answers 429 with Retry-After, which is what our partner docs promise.'),
        sh('for i in $(seq 1 102); do curl -s -o /dev/null -w "%{http_code}\\n" -H "x-api-key: test" localhost:8080/invoices; done | sort | uniq -c', '    100 200\n      2 429'),
      ],
      'Rate limiting is live in the branch: 100/min per API key (IP fallback), shared through Redis, 429 with Retry-After beyond it.',
    )],
    facts: ['rate limiting', '100/min per API key'],
    q: [
      { ask: 'what rate limit did we set for the public API?', kw: 'rate limit 429 Retry-After', style: 'lit' },
      { ask: 'how many calls a minute may a partner make before being throttled?', kw: 'partner throttle per minute', style: 'para' },
    ],
  },
  {
    id: 'invoice-list-n-plus-one',
    day: 23,
    turns: [turn(
      'GET /invoices takes 3 seconds for the bigger tenants. profile it',
      [
        sh('LOG_LEVEL=debug pnpm dev & sleep 3; curl -s -o /dev/null -w "%{time_total}\\n" -H "authorization: Bearer $TOKEN" "localhost:8080/invoices?limit=50"; grep -c "select .* from line_items" /tmp/ledger-dev.log', '2.914\n51'),
        say('51 queries for one page: one for the invoices and one per invoice for its line items, issued from the serializer. Classic N+1. Fetching the items in the same query with json_agg removes the per-row round trips.'),
        rd('src/db/invoices.ts', FILES[3].content),
        ed('src/db/invoices.ts', "selectFrom('invoices').selectAll()", "selectFrom('invoices').selectAll('invoices')\n    .select((eb) => jsonArrayFrom(eb.selectFrom('line_items').selectAll().whereRef('line_items.invoice_id', '=', 'invoices.id')).as('items'))"),
        sh('curl -s -o /dev/null -w "%{time_total}\\n" -H "authorization: Bearer $TOKEN" "localhost:8080/invoices?limit=50"', '0.118'),
      ],
      'The invoice list now loads line items in the same query (jsonArrayFrom); a 50-invoice page went from 2.9 s to 0.12 s.',
    )],
    facts: ['GET /invoices takes 3 seconds', 'jsonArrayFrom'],
    q: [
      { ask: 'why was listing bills so slow for big customers and what did we change?', kw: 'slow invoice list big tenants', style: 'para' },
      { ask: 'N+1 queries on GET /invoices', kw: 'N+1 invoices jsonArrayFrom', style: 'lit' },
    ],
  },
  {
    id: 'node-version-policy',
    day: 25,
    turns: [turn(
      'should we move this service to Node 22? for the record: new services target Node 22, but this one stays on 20 until the Fly base image has 22',
      [
        rd('.nvmrc', '20.17.0'),
        rd('Dockerfile', 'FROM node:20-alpine AS base\nRUN corepack enable'),
        say('Agreed, it stays on 20 for now. The only thing that would force us earlier is the 20.x end of life in April 2026... which has not been announced as moved. I left a note in the README so nobody bumps .nvmrc by accident.'),
        ed('README.md', '## Runtime', '## Runtime\n\nNode 20 (see .nvmrc). New services start on Node 22; this one moves when the Fly base image ships 22.'),
      ],
      'Stays on Node 20 (.nvmrc); README records that new services target Node 22 and this one follows when the base image does.',
    )],
    facts: ['Node 22', 'stays on Node 20'],
    q: [
      { ask: 'which node version do new services use?', kw: 'Node 22 new services nvmrc', style: 'lit' },
      { ask: 'what runtime did we agree on for upcoming codebases?', kw: 'runtime for new code', style: 'para' },
    ],
  },
  {
    id: 'flaky-port-eaddrinuse',
    day: 27,
    turns: [turn(
      'integration tests randomly crash with EADDRINUSE now that vitest runs them in parallel',
      [
        sh('pnpm test:integration', lines(
          ' ❯ test/integration/payments.test.ts (0 test)',
          ' FAIL  test/integration/payments.test.ts [ test/integration/payments.test.ts ]',
          "Error: listen EADDRINUSE: address already in use 0.0.0.0:3000",
          '    at Server.setupListenHandle [as _listen2] (node:net:1898:16)',
          '    at listenInCluster (node:net:1946:12)',
          '    at test/integration/helpers/server.ts:14:13',
        ), 1),
        rd('test/integration/helpers/server.ts', "export async function startApp() {\n  const app = await buildApp();\n  await app.listen({ port: 3000 });\n  return { app, url: 'http://localhost:3000' };\n}"),
        say('Each test file starts the app on the fixed port 3000; with several vitest workers two files start at once and one loses the port. Letting the OS choose (port 0) and reading the address back fixes it.'),
        ed('test/integration/helpers/server.ts', "  await app.listen({ port: 3000 });\n  return { app, url: 'http://localhost:3000' };", "  const address = await app.listen({ port: 0, host: '127.0.0.1' });\n  return { app, url: address };"),
        sh('pnpm test:integration', ' Test Files  9 passed (9)\n      Tests  61 passed (61)\n   Duration  14.20s'),
      ],
      'Integration helpers listen on port 0 and use the address they get; 9 files pass in parallel.',
    )],
    facts: ['EADDRINUSE', 'port 0'],
    q: [
      { ask: 'the integration suite sometimes crashed because two workers grabbed the same socket — how was that solved?', kw: 'integration tests same port crash', style: 'para' },
      { ask: 'EADDRINUSE address already in use 3000 in integration tests', kw: 'EADDRINUSE 3000', style: 'lit' },
    ],
  },
  {
    id: 'tenant-cache-leak',
    day: 30,
    turns: [turn(
      'memory on the api machines grows ~200MB a day until fly restarts them. find the leak',
      [
        sh('fly ssh console -a ledger-api -C "node --heapsnapshot-signal=SIGUSR2 & kill -USR2 1"', 'Heap.20260911.101204.1.0.001.heapsnapshot written'),
        sh('node scripts/heap-top.js Heap.20260911.101204.1.0.001.heapsnapshot | head -4', ' retained   count  constructor\n 612.4 MB   91223  TenantSettings\n  41.0 MB   12011  (string)\n  12.2 MB    3301  Object'),
        gr('new Map<string, TenantSettings>', 'src/tenants/settings.ts:6:const cache = new Map<string, TenantSettings>();'),
        say('The leak: settings.ts caches TenantSettings in a module-level Map keyed by tenant id plus request locale, and entries are never evicted — every new locale variant adds a full copy. 91k entries for 3k tenants.'),
        ed('src/tenants/settings.ts', 'const cache = new Map<string, TenantSettings>();', "const cache = new LRUCache<string, TenantSettings>({ max: 5000, ttl: 10 * 60_000 });"),
        sh('pnpm add lru-cache', 'dependencies:\n+ lru-cache 11.0.1'),
      ],
      'Tenant settings cache is bounded now (lru-cache, 5000 entries, 10 min TTL) instead of a Map that never evicted.',
    )],
    facts: ['memory on the api machines', 'lru-cache'],
    q: [
      { ask: 'what was eating RAM on the API boxes?', kw: 'api RAM growing', style: 'para' },
      { ask: 'TenantSettings Map memory leak', kw: 'TenantSettings LRUCache', style: 'lit' },
    ],
  },
  {
    id: 'docker-build-speed',
    day: 33,
    turns: [turn(
      'docker builds take 9 minutes in CI, way too slow. can you speed up the Dockerfile?',
      [
        rd('Dockerfile', 'FROM node:20-alpine\nWORKDIR /app\nCOPY . .\nRUN corepack enable && pnpm install --frozen-lockfile\nRUN pnpm build\nCMD ["node", "dist/server.js"]'),
        say('Two things make it slow: COPY . . before install invalidates the dependency layer on every source change, and the final image carries dev dependencies. pnpm fetch only needs the lockfile, so dependencies can be cached on their own layer with a BuildKit cache mount, and a second stage keeps production deps only.'),
        wr('Dockerfile', 'FROM node:20-alpine AS deps\nWORKDIR /app\nRUN corepack enable\nCOPY pnpm-lock.yaml ./\nRUN --mount=type=cache,id=pnpm,target=/root/.local/share/pnpm/store pnpm fetch\nCOPY . .\nRUN pnpm install --offline --frozen-lockfile && pnpm build && pnpm prune --prod\n\nFROM node:20-alpine\nWORKDIR /app\nCOPY --from=deps /app/node_modules ./node_modules\nCOPY --from=deps /app/dist ./dist\nCMD ["node", "dist/server.js"]'),
        sh('docker buildx build --cache-from type=gha --cache-to type=gha,mode=max -t ledger-api:test .', '#12 [deps 4/6] RUN --mount=type=cache pnpm fetch\n#12 CACHED\n#15 exporting to image\n#15 DONE 2.1s\nBuilding 94.3s (16/16) FINISHED'),
      ],
      'Docker builds take about 1.5 minutes now: lockfile-only pnpm fetch layer with a cache mount, multi-stage image without dev deps.',
    )],
    facts: ['docker builds take 9 minutes', 'pnpm fetch'],
    q: [
      { ask: 'how did we speed up the docker build?', kw: 'Dockerfile pnpm fetch cache mount multi-stage', style: 'lit' },
      { ask: 'container images used to take ages in the pipeline; what made them faster?', kw: 'slow image builds pipeline', style: 'para' },
    ],
  },
  {
    id: 'jwt-clock-skew',
    day: 36,
    turns: [turn(
      'two partners report 401 "jwt not active" right after they get a fresh token. only them',
      [
        sh('fly logs -a ledger-api | grep "jwt not active" | head -3', '{"level":40,"msg":"auth failed","err":"NotBeforeError: jwt not active","date":"2026-09-21T08:14:09.010Z","partner":"acme-erp"}\n{"level":40,"msg":"auth failed","err":"NotBeforeError: jwt not active","date":"2026-09-21T08:14:09.412Z","partner":"acme-erp"}'),
        rd('src/auth/jwt.ts', "export function verifyToken(token) {\n  return jwt.verify(token, publicKey, { algorithms: ['RS256'] });\n}"),
        say('Those partners mint the tokens on their own servers, whose clocks run a few seconds ahead of ours: the nbf claim lies in our future for the first seconds, so jsonwebtoken throws NotBeforeError. It is clock skew, not a bad token. A small tolerance is the standard answer.'),
        ed('src/auth/jwt.ts', "{ algorithms: ['RS256'] }", "{ algorithms: ['RS256'], clockTolerance: 30 } // partner clocks drift; 30 s of nbf/exp slack"),
        sh('pnpm test src/auth', ' ✓ src/auth/jwt.test.ts (11 tests) 31ms'),
      ],
      'Token verification allows 30 s clockTolerance; the two partners\' fresh tokens are accepted.',
    )],
    facts: ['jwt not active', 'clockTolerance'],
    q: [
      { ask: 'some partners got rejected logins right after receiving their credentials — why?', kw: 'partner login rejected fresh token', style: 'para' },
      { ask: 'NotBeforeError jwt not active for partner tokens', kw: 'NotBeforeError jwt clockTolerance', style: 'lit' },
    ],
  },
  {
    id: 'pdf-euro-glyph',
    day: 38,
    turns: [turn(
      'invoice PDFs show an empty box instead of the € sign since we moved to the alpine image',
      [
        sh('docker run --rm ledger-api:latest fc-list | wc -l', '0'),
        say('No fonts at all in the alpine image, so the PDF renderer falls back to its built-in Helvetica subset, which has no euro glyph. The Debian image had DejaVu installed. We need a font in the image and should embed it explicitly instead of relying on fallbacks.'),
        ed('Dockerfile', 'FROM node:20-alpine\nWORKDIR /app\nCOPY --from=deps', 'FROM node:20-alpine\nRUN apk add --no-cache font-noto\nWORKDIR /app\nCOPY --from=deps'),
        ed('src/pdf/render.ts', "doc.font('Helvetica')", "doc.font('/usr/share/fonts/noto/NotoSans-Regular.ttf')"),
        sh('pnpm pdf:sample INV-2026-0412 && pdffonts out/INV-2026-0412.pdf', 'name                                 type              emb sub\n------------------------------------ ----------------- --- ---\nAAAAAA+NotoSans-Regular              TrueType          yes yes'),
      ],
      'PDFs embed Noto Sans now (font-noto in the image) and the € sign renders.',
    )],
    facts: ['€ sign', 'Noto Sans'],
    q: [
      { ask: 'the euro symbol came out as boxes in generated documents — what was the fix?', kw: 'euro symbol boxes documents', style: 'para' },
      { ask: 'why is the € sign missing from invoice PDFs on alpine?', kw: 'euro PDF alpine font', style: 'lit' },
    ],
  },
  {
    id: 'feature-flags-decision',
    day: 40,
    turns: [turn(
      'we need a flag for the new dunning flow. do we buy LaunchDarkly or keep it simple?',
      [
        gr('process.env.FLAG_', 'src/jobs/reminders.ts:3:const v2 = process.env.FLAG_REMINDERS_V2 === "1";'),
        say('Keep it simple for now: we have two flags in total, one deploy target, and no one who needs to flip flags without a deploy. A typed module read from the environment covers it; LaunchDarkly makes sense once product wants per-tenant rollouts.'),
        wr('src/config/flags.ts', "export const flags = {\n  dunningV2: process.env.FLAG_DUNNING_V2 === '1',\n  remindersV2: process.env.FLAG_REMINDERS_V2 === '1',\n} as const;"),
        ed('src/jobs/reminders.ts', 'const v2 = process.env.FLAG_REMINDERS_V2 === "1";', "import { flags } from '../config/flags.js';\nconst v2 = flags.remindersV2;"),
      ],
      'Decision: no flag vendor yet. Flags are typed env switches in src/config/flags.ts (dunningV2, remindersV2); revisit LaunchDarkly when per-tenant rollout is needed.',
    )],
    facts: ['LaunchDarkly', 'src/config/flags.ts'],
    q: [
      { ask: 'did we pick a vendor for toggling features, or how do we do it?', kw: 'feature toggles vendor', style: 'para' },
      { ask: 'where do feature flags live in ledger-api?', kw: 'flags.ts FLAG_DUNNING_V2', style: 'lit' },
    ],
  },
  {
    id: 'pool-too-many-connections',
    day: 42,
    turns: [turn(
      'after scaling to 6 machines we get "sorry, too many clients already" from postgres',
      [
        sh('psql $DATABASE_URL -c "show max_connections" -c "select count(*) from pg_stat_activity"', ' max_connections\n-----------------\n 100\n\n count\n-------\n    97'),
        rd('src/db/client.ts', "export const db = new Kysely({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: config.DATABASE_URL, max: 20 }) }) });"),
        say('Each instance opens up to 20 connections, so 6 instances can ask for 120 against a server limit of 100 (minus the reserved ones). The pool size was picked for 2 machines. Two changes: a smaller pool per instance and PgBouncer in transaction mode in front, so the count stays flat as we scale.'),
        ed('src/db/client.ts', 'max: 20', 'max: Number(process.env.PG_POOL_MAX ?? 8)'),
        sh('fly secrets set DATABASE_URL=postgres://ledger@ledger-pgbouncer.internal:6432/ledger -a ledger-api', 'Secrets are staged for the first deployment'),
      ],
      'Pool max is 8 per instance (PG_POOL_MAX) and the app connects through PgBouncer; connections stay near 50 with 6 machines.',
    )],
    facts: ['too many clients', 'PgBouncer'],
    q: [
      { ask: 'why did the database refuse clients after we added more machines?', kw: 'database refused connections scaling', style: 'para' },
      { ask: 'postgres "too many clients already" after scaling', kw: 'too many clients pool max PgBouncer', style: 'lit' },
    ],
  },
  {
    id: 'webhook-idempotency',
    day: 44,
    turns: [
      turn(
        'three customers were charged twice yesterday. all around 14:05',
        [
          sh("psql $DATABASE_URL -c \"select stripe_event_id, count(*) from payments where created_at::date = '2026-10-01' group by 1 having count(*) > 1\"", ' stripe_event_id | count\n-----------------+-------\n evt_1Q2x7Ka     |     2\n evt_1Q2x7Lb     |     2\n evt_1Q2x7Mc     |     2\n(3 rows)'),
          say('Same Stripe event stored twice: at 14:05 our handler was slow (the deploy), Stripe timed out and redelivered, and the handler records a payment every time it sees an event. It has to be idempotent on the event id.'),
        ],
        'The double charges come from redelivered webhook events processed twice; the handler is not idempotent.',
      ),
      turn(
        'ok fix it properly',
        [
          wr('migrations/0047_processed_events.ts', "export async function up(db) {\n  await db.schema.createTable('processed_events').addColumn('event_id', 'text', (c) => c.primaryKey()).addColumn('processed_at', 'timestamptz', (c) => c.defaultTo(sql`now()`)).execute();\n}"),
          ed('src/billing/stripe-events.ts', 'export async function handleStripeEvent(event) {', "export async function handleStripeEvent(event) {\n  const fresh = await db.insertInto('processed_events').values({ event_id: event.id }).onConflict((oc) => oc.doNothing()).returning('event_id').executeTakeFirst();\n  if (!fresh) return; // already handled: Stripe redelivers"),
          sh('pnpm test src/billing/stripe-events.test.ts', ' ✓ src/billing/stripe-events.test.ts (9 tests) 88ms'),
        ],
        'Each Stripe event is recorded in processed_events (primary key on the event id) in the same transaction as the payment; a redelivery is a no-op.',
      ),
    ],
    facts: ['charged twice', 'processed_events'],
    q: [
      { ask: 'why were customers charged twice?', kw: 'charged twice duplicate payment', style: 'lit' },
      { ask: 'how do we make sure a repeated notification from the payment provider is only handled once?', kw: 'duplicate provider notification once', style: 'para', turn: 1 },
    ],
  },
  {
    id: 'openapi-docs',
    day: 47,
    turns: [turn(
      'partners want an API reference. can we generate it instead of writing it by hand?',
      [
        sh('pnpm add @asteasolutions/zod-to-openapi @fastify/swagger-ui', 'dependencies:\n+ @asteasolutions/zod-to-openapi 7.1.1\n+ @fastify/swagger-ui 4.1.0'),
        say('Since every body is already a zod schema, zod-to-openapi can build the document from the same schemas the routes validate with, so the reference cannot drift from the code.'),
        wr('src/openapi.ts', "const registry = new OpenAPIRegistry();\nregistry.register('CreateCustomer', CreateCustomer);\nexport const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: '3.1.0', info: { title: 'Ledger API', version: '1.8.0' } });"),
        ed('src/app.ts', 'app.register(customerRoutes);', "app.register(swaggerUi, { routePrefix: '/docs' });\napp.register(customerRoutes);"),
        sh('curl -s localhost:8080/docs/json | jq ".paths | keys | length"', '23'),
      ],
      'The OpenAPI 3.1 document is generated from the zod schemas and served with Swagger UI at /docs (23 paths).',
    )],
    facts: ['API reference', '/docs'],
    q: [
      { ask: 'how is the API reference produced?', kw: 'openapi zod-to-openapi swagger /docs', style: 'lit' },
      { ask: 'where can integrators browse the endpoint documentation?', kw: 'integrators endpoint docs', style: 'para' },
    ],
  },
  {
    id: 'sentry-sourcemaps',
    day: 49,
    turns: [turn(
      'stack traces in sentry are useless, everything points at dist/server.js line 1',
      [
        rd('tsconfig.build.json', '{ "extends": "./tsconfig.json", "compilerOptions": { "outDir": "dist", "sourceMap": false } }'),
        say('Two gaps: the build emits no source maps, and even with them Sentry needs the maps uploaded for the exact release the event reports. We tag releases with the git sha already, so the upload must use the same name.'),
        ed('tsconfig.build.json', '"sourceMap": false', '"sourceMap": true, "inlineSources": true'),
        ed('.github/workflows/deploy.yml', '      - run: fly deploy', '      - run: pnpm sentry-cli sourcemaps upload --release ${{ github.sha }} dist\n      - run: fly deploy'),
        sh('pnpm sentry-cli sourcemaps upload --release 4f1c2ab dist', '> Found 48 files\n> Analyzing 48 sources\n> Uploaded files to Sentry\n  Source Map Upload Report\n    ~/server.js.map (sourcemap)'),
      ],
      'Builds emit source maps and the deploy uploads them to Sentry under the git sha release; new events show TypeScript lines.',
    )],
    facts: ['stack traces in sentry', 'source maps'],
    q: [
      { ask: 'why were error reports unreadable, and what did we do about it?', kw: 'unreadable error reports', style: 'para' },
      { ask: 'sentry stack traces point at dist/server.js line 1', kw: 'sentry sourcemaps upload release', style: 'lit' },
    ],
  },
  {
    id: 'csv-export-stream',
    day: 52,
    turns: [turn(
      'the CSV export times out at 30s for tenants with more than ~200k invoices',
      [
        rd('src/routes/exports.ts', "app.get('/exports/invoices.csv', async (req, reply) => {\n  const rows = await db.selectFrom('invoices').selectAll().where('tenant_id', '=', req.tenant.id).execute();\n  reply.type('text/csv').send(toCsv(rows));\n});"),
        say('It loads every row into memory, builds one string, and sends nothing until the end, so the proxy\'s 30 s idle timeout fires first. Streaming rows from a cursor straight into the response sends the first bytes at once and keeps memory flat.'),
        sh('pnpm add pg-query-stream csv-stringify', 'dependencies:\n+ csv-stringify 6.5.1\n+ pg-query-stream 4.7.0'),
        ed('src/routes/exports.ts', "  const rows = await db.selectFrom('invoices').selectAll().where('tenant_id', '=', req.tenant.id).execute();\n  reply.type('text/csv').send(toCsv(rows));", "  const stream = client.query(new QueryStream('select * from invoices where tenant_id = $1', [req.tenant.id]));\n  reply.type('text/csv').send(stream.pipe(stringify({ header: true })));"),
        sh('time curl -s -H "authorization: Bearer $TOKEN" localhost:8080/exports/invoices.csv | wc -l', '412331\n\nreal\t0m41.902s'),
      ],
      'The CSV export streams from a Postgres cursor (pg-query-stream → csv-stringify); 412k rows download without hitting the timeout.',
    )],
    facts: ['CSV export times out', 'pg-query-stream'],
    q: [
      { ask: 'how did we fix the CSV export timeout?', kw: 'csv export timeout stream', style: 'lit' },
      { ask: 'downloading all of a large tenant\'s records used to die halfway — how does it work now?', kw: 'large export download dies', style: 'para' },
    ],
  },
  {
    id: 'esm-scripts-tsx',
    day: 55,
    turns: [turn(
      'after the dependabot batch, `pnpm script:backfill` crashes immediately',
      [
        sh('pnpm script:backfill', lines(
          '> ts-node scripts/backfill-numbers.ts',
          '',
          'Error [ERR_REQUIRE_ESM]: require() of ES Module /home/dev/projects/ledger-api/node_modules/p-retry/index.js from /home/dev/projects/ledger-api/scripts/backfill-numbers.ts not supported.',
          'Instead change the require of index.js in /home/dev/projects/ledger-api/scripts/backfill-numbers.ts to a dynamic import() which is available in all CommonJS modules.',
        ), 1),
        say('p-retry 6 is ESM-only, and ts-node runs our scripts as CommonJS, so the require fails. The app itself is built by tsc as ESM and is fine; only the ts-node scripts break. tsx runs TypeScript as ESM without config.'),
        ed('package.json', '"script:backfill": "ts-node scripts/backfill-numbers.ts"', '"script:backfill": "tsx scripts/backfill-numbers.ts"'),
        sh('pnpm remove ts-node && pnpm add -D tsx && pnpm script:backfill --dry-run', 'backfill: 0 invoices without numbers (dry run)'),
      ],
      'Maintenance scripts run with tsx instead of ts-node, so ESM-only dependencies like p-retry 6 load; backfill dry run works.',
    )],
    facts: ['script:backfill', 'tsx'],
    q: [
      { ask: 'a dependency bump broke our maintenance scripts — what was the fix?', kw: 'maintenance scripts broke after bump', style: 'para' },
      { ask: 'ERR_REQUIRE_ESM p-retry in ts-node scripts', kw: 'ERR_REQUIRE_ESM p-retry tsx', style: 'lit' },
    ],
  },
  {
    id: 'fx-rates-ecb',
    day: 58,
    turns: [turn(
      'we need multi-currency invoices. how do we get exchange rates?',
      [
        say('Proposal: keep every amount in minor units with its ISO currency code, and convert only for reports in the tenant\'s base currency. Rates from the ECB daily reference feed: free, official, published once a day around 16:00 CET, which matches how accountants book.'),
        wr('src/fx/ecb.ts', "const FEED = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';\nexport async function fetchDailyRates(): Promise<Map<string, number>> {\n  const xml = await (await fetch(FEED)).text();\n  return new Map([...xml.matchAll(/currency='([A-Z]{3})' rate='([0-9.]+)'/g)].map((m) => [m[1], Number(m[2])]));\n}"),
        sh('pnpm tsx -e "import(\'./src/fx/ecb.ts\').then(async m => console.log((await m.fetchDailyRates()).get(\'USD\')))"', '1.0931'),
        ed('src/jobs/index.ts', "schedule('0 2 * * *', sendOverdueReminders);", "schedule('0 2 * * *', sendOverdueReminders);\nschedule('30 16 * * 1-5', storeDailyRates); // after the ECB publishes"),
      ],
      'Decision: amounts stay in minor units with a currency code; daily ECB reference rates are fetched at 16:30 on weekdays and stored for conversions.',
    )],
    facts: ['exchange rates', 'ECB'],
    q: [
      { ask: 'where do the exchange rates come from?', kw: 'exchange rates ECB daily', style: 'lit' },
      { ask: 'which source did we choose for converting between monies, and how often is it refreshed?', kw: 'currency conversion source', style: 'para' },
    ],
  },
  {
    id: 'pino-redact',
    day: 60,
    turns: [turn(
      'security review found bearer tokens in our logs. fix that',
      [
        gr('authorization', 'logs/sample.jsonl:1:{"req":{"headers":{"authorization":"Bearer eyJhbGciOiJSUzI1NiIs..."}}}'),
        say('Fastify\'s request serializer logs all headers at debug level, and LOG_LEVEL=debug was left on in staging. Turning debug off would hide the symptom; pino\'s redact option removes the fields whatever the level.'),
        ed('src/app.ts', "logger: { level: config.LOG_LEVEL }", "logger: { level: config.LOG_LEVEL, redact: { paths: ['req.headers.authorization', 'req.headers[\"x-api-key\"]', 'req.headers.cookie'], censor: '[redacted]' } }"),
        sh('LOG_LEVEL=debug pnpm dev & sleep 2; curl -s -H "authorization: Bearer secret" localhost:8080/health >/dev/null; grep -c secret /tmp/ledger-dev.log', '0'),
      ],
      'Authorization, x-api-key and cookie headers are redacted by pino at every log level.',
    )],
    facts: ['bearer tokens in our logs', 'redact'],
    q: [
      { ask: 'how do we keep auth headers out of the logs?', kw: 'pino redact authorization logs', style: 'lit' },
      { ask: 'the security audit spotted credentials in our output — what did we change?', kw: 'credentials in log output audit', style: 'para' },
    ],
  },
  {
    id: 'tenant-search-leak',
    day: 62,
    turns: [turn(
      'URGENT: a customer saw invoices of another company in the search box results',
      [
        rd('src/db/search.ts', "export function searchInvoices(tenantId: string, q: string) {\n  return sql`select * from invoices where number ilike ${'%' + q + '%'} or customer_name ilike ${'%' + q + '%'} limit 20`.execute(db);\n}"),
        say('Found it: the raw SQL in searchInvoices takes tenantId but never uses it — the WHERE has only the two ILIKE conditions, so search crosses tenants. Every Kysely query builder call has the tenant filter; this one is hand-written SQL added with the search feature.'),
        ed('src/db/search.ts', 'where number ilike', "where tenant_id = ${tenantId} and (number ilike"),
        ed('src/db/search.ts', "customer_name ilike ${'%' + q + '%'} limit 20", "customer_name ilike ${'%' + q + '%'}) limit 20"),
        wr('test/integration/tenant-isolation.test.ts', "it('search never returns another tenant\\'s invoice', async () => {\n  const res = await as(tenantB).get('/search?q=INV');\n  expect(res.body.every((i) => i.tenant_id === tenantB.id)).toBe(true);\n});"),
        sh('pnpm test:integration test/integration/tenant-isolation.test.ts', ' ✓ test/integration/tenant-isolation.test.ts (4 tests) 1.2s'),
      ],
      'Search is tenant-scoped again and an isolation test guards it. Follow-up: Postgres row-level security on invoices so a missing filter cannot leak again.',
    )],
    facts: ['another company', 'tenant-scoped'],
    q: [
      { ask: 'was there ever a case of one customer seeing another company\'s data?', kw: 'customer saw other company data', style: 'para' },
      { ask: 'searchInvoices missing tenant_id filter', kw: 'searchInvoices tenant_id', style: 'lit' },
    ],
  },
  {
    id: 'ci-outdated-lockfile',
    day: 35,
    turns: [turn(
      'CI is red again on main after I merged the dependabot PRs',
      [
        sh('gh run view --log-failed', 'install\t ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with package.json\ninstall\t  Failure reason:\ninstall\t  specifiers in the lockfile ({"pino":"^9.3.2"}) don\'t match specs in package.json ({"pino":"^9.4.0"})'),
        say('Two dependabot PRs touched package.json; resolving their merge conflict kept both package.json changes but only one lockfile, so the lockfile no longer matches the manifest.'),
        sh('pnpm install && git add pnpm-lock.yaml && git commit -m "Sync lockfile after dependabot merges" && git push', 'Lockfile is up to date\nDone in 3.4s\n[main 9ab21cd] Sync lockfile after dependabot merges'),
      ],
      'Regenerated pnpm-lock.yaml and pushed; main is green.',
    )],
    facts: ['dependabot PRs', 'Regenerated pnpm-lock.yaml'],
    q: [{ ask: 'why did CI fail with ERR_PNPM_OUTDATED_LOCKFILE?', kw: 'OUTDATED_LOCKFILE dependabot merge', style: 'lit' }],
  },
  {
    id: 'ci-postgres-service-health',
    day: 45,
    turns: [turn(
      'the integration job on CI hangs for 6 minutes and then fails with connection refused',
      [
        sh('gh run view --log-failed', 'integration\tError: connect ECONNREFUSED 127.0.0.1:5432\nintegration\t    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16)\nintegration\t  code: \'ECONNREFUSED\''),
        rd('.github/workflows/ci.yml', '    services:\n      postgres:\n        image: postgres:16\n        ports: ["5432:5432"]'),
        say('The tests start before Postgres accepts connections: the service has no health check, so the job does not wait for it.'),
        ed('.github/workflows/ci.yml', '        ports: ["5432:5432"]', '        ports: ["5432:5432"]\n        options: >-\n          --health-cmd pg_isready --health-interval 2s --health-timeout 5s --health-retries 20'),
      ],
      'The Postgres service in CI has a pg_isready health check, so the integration job waits for the database.',
    )],
    facts: ['integration job on CI hangs', 'pg_isready'],
    q: [{ ask: 'the integration job in CI hung waiting for the database, how did we fix it?', kw: 'service container health check', style: 'para' }],
  },
  {
    id: 'ci-fork-secrets',
    day: 48,
    turns: [turn(
      'PRs from outside contributors always fail CI, ours pass',
      [
        sh('gh run view 12004418 --log-failed', 'test\tZodError: [{"code":"invalid_string","validation":"url","path":["DATABASE_URL"],"message":"Invalid url"}]'),
        say('Pull requests from forks do not get repository secrets, so DATABASE_URL is empty and config.ts refuses to start. Tests should not need the staging database anyway: the workflow can point at its own Postgres service.'),
        ed('.github/workflows/ci.yml', '      DATABASE_URL: ${{ secrets.DATABASE_URL }}', '      DATABASE_URL: postgres://postgres:postgres@localhost:5432/ledger_test'),
      ],
      'CI uses its own Postgres service URL instead of a secret, so pull requests from forks run the suite too.',
    )],
    facts: ['outside contributors', 'Postgres service URL'],
    q: [{ ask: 'why did pull requests from outside people always go red?', kw: 'fork pull request secrets', style: 'para' }],
  },
  {
    id: 'flaky-shared-db-state',
    day: 51,
    turns: [turn(
      'routes tests pass one by one but fail when I run the whole folder',
      [
        sh('pnpm test src/routes', ' ❯ src/routes/customers.test.ts (7 tests | 1 failed)\n   × lists customers of the tenant\n     → expected [ …(3) ] to have a length of 2 but got 3'),
        say('Order dependence: invoices.test.ts creates a customer and never removes it, and customers.test.ts counts customers in the same database. Each test should run inside a transaction that is rolled back.'),
        ed('test/setup.ts', 'beforeEach(async () => {', "beforeEach(async () => {\n  await db.executeQuery(sql`BEGIN`.compile(db));\n});\nafterEach(async () => {\n  await db.executeQuery(sql`ROLLBACK`.compile(db));"),
        sh('pnpm test src/routes', ' Test Files  6 passed (6)\n      Tests  58 passed (58)'),
      ],
      'Route tests each run in a rolled-back transaction, so they no longer see each other\'s rows.',
    )],
    facts: ['pass one by one', 'rolled-back transaction'],
    q: [{ ask: 'tests passed alone but failed together — what was going on?', kw: 'test isolation rollback', style: 'para' }],
  },
  {
    id: 'webhook-timeout-queue',
    day: 57,
    turns: [turn(
      'stripe emailed that our webhook endpoint is failing and they will disable it',
      [
        sh('fly logs -a ledger-api | grep "POST /webhooks/stripe" | tail -3', '{"msg":"request completed","url":"/webhooks/stripe","statusCode":200,"responseTime":14210}\n{"msg":"request completed","url":"/webhooks/stripe","statusCode":200,"responseTime":12877}'),
        say('We answer after 12–14 s because invoice.paid renders and mails the receipt PDF inside the request. Stripe gives up after 10 s and counts it as a failure. The handler must acknowledge at once and do the work in the background.'),
        sh('pnpm add pg-boss', 'dependencies:\n+ pg-boss 10.1.3'),
        ed('src/billing/stripe-events.ts', '  await sendReceipt(event.data.object);', "  await boss.send('send-receipt', { invoiceId: event.data.object.id });"),
      ],
      'The webhook acknowledges immediately; receipts are rendered and mailed by a pg-boss job.',
    )],
    facts: ['webhook endpoint is failing', 'pg-boss'],
    q: [{ ask: 'why did stripe say our webhook endpoint was timing out?', kw: 'webhook endpoint timeout queue', style: 'lit' }],
  },
  {
    id: 'pdf-worker-pool',
    day: 59,
    turns: [turn(
      'p99 latency of the whole API jumps to 4s whenever someone downloads a PDF',
      [
        sh('clinic doctor -- node dist/server.js', 'Detected event loop blockage: 3.9 s in renderInvoicePdf (src/pdf/render.ts:41)'),
        say('PDF rendering is synchronous CPU work on the main thread, so it blocks the event loop for every other request. Moving it to a worker thread pool keeps the API responsive.'),
        sh('pnpm add piscina', 'dependencies:\n+ piscina 4.7.0'),
        wr('src/pdf/pool.ts', "export const pdfPool = new Piscina({ filename: new URL('./render-worker.js', import.meta.url).href, maxThreads: 2 });"),
      ],
      'PDFs render in a piscina worker pool (2 threads); API p99 stays flat during downloads.',
    )],
    facts: ['p99 latency', 'piscina'],
    q: [{ ask: 'what did we do about document rendering blocking the whole server?', kw: 'pdf blocking event loop', style: 'para' }],
  },
  {
    id: 'api-key-rotation',
    day: 61,
    turns: [turn(
      'partners need to rotate API keys without downtime',
      [
        rd('src/auth/api-keys.ts', "export async function findKey(raw: string) {\n  return db.selectFrom('api_keys').where('hash', '=', sha256(raw)).where('revoked_at', 'is', null).executeTakeFirst();\n}"),
        say('Plan: a partner may hold two active keys; creating a new one schedules the old one to expire after a 7-day grace period instead of revoking it at once.'),
        ed('src/auth/api-keys.ts', "where('revoked_at', 'is', null)", "where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))"),
      ],
      'Key rotation: at most two active keys per partner; the old key expires 7 days after a new one is created.',
    )],
    facts: ['rotate API keys', '7 days'],
    q: [{ ask: 'how does API key rotation work for partners?', kw: 'api key rotation grace', style: 'lit' }],
  },
  {
    id: 'reminders-double-mail',
    day: 63,
    turns: [turn(
      'customers got the overdue reminder email twice this morning',
      [
        sh('fly logs -a ledger-api | grep sendOverdueReminders', '2026-10-29T02:00:00Z app[7811] sendOverdueReminders: 412 reminders\n2026-10-29T02:00:00Z app[8102] sendOverdueReminders: 412 reminders'),
        say('Both machines run the scheduler, so the 02:00 job ran twice. Since we scaled past one machine every cron job runs on each. A Postgres advisory lock lets exactly one instance run it.'),
        ed('src/jobs/reminders.ts', 'export async function sendOverdueReminders(now = new Date()) {', "export async function sendOverdueReminders(now = new Date()) {\n  if (!(await tryAdvisoryLock('reminders'))) return; // another machine has it"),
      ],
      'The reminder job takes a Postgres advisory lock, so only one machine sends reminders.',
    )],
    facts: ['overdue reminder email twice', 'advisory lock'],
    q: [{ ask: 'why did people get the same overdue email twice?', kw: 'reminder sent twice cron', style: 'para' }],
  },
];

export const LEDGER_API: ProjectHistory = {
  key: 'ledger-api',
  dir: 'ledger-api',
  remote: 'git@github.com:northwind-labs/ledger-api.git',
  kind: 'TypeScript web service',
  firstDay: '2026-08-03',
  days: 65,
  episodes: EPISODES,
  noiseCount: 36,
  noise: noiseTemplates(VOCAB),
  warmups: warmupTemplates(VOCAB),
  explore: exploreSteps(VOCAB),
};
