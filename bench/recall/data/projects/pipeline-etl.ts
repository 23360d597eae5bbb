/**
 * pipeline-etl: a Python data pipeline (Poetry, polars, Airflow DAGs, dbt models on a Postgres
 * warehouse, parquet on S3, pytest, a Makefile, GitHub Actions).
 */
import type { Rng } from '../../rng.js';
import { ed, gr, lines, rd, say, sh, turn, wr, type Episode, type ProjectHistory } from '../dsl.js';
import { diffStatOf, exploreSteps, noiseTemplates, warmupTemplates, type SourceFile, type Vocab } from '../noise.js';

const ROOT = '/home/dev/projects/pipeline-etl';

const FILES: SourceFile[] = [
  {
    path: 'pipeline/extract/orders.py',
    content: lines(
      'import polars as pl',
      '',
      'from pipeline.clients.shop import ShopClient',
      'from pipeline.lake import raw_path',
      '',
      '',
      'def extract_orders(day: str, client: ShopClient) -> str:',
      '    pages = [pl.DataFrame(page) for page in client.orders(updated_on=day)]',
      '    frame = pl.concat(pages, how="vertical")',
      '    target = raw_path("orders", day)',
      '    frame.write_parquet(target, compression="zstd")',
      '    return target',
    ),
    about: 'orders.py pulls one day of orders from the shop API page by page, stacks the pages into a polars DataFrame and writes them as a zstd parquet file under the raw/orders prefix of the lake. It returns the S3 key so the load task can pick it up.',
  },
  {
    path: 'pipeline/load/warehouse.py',
    content: lines(
      'import io',
      '',
      'import polars as pl',
      'import psycopg',
      '',
      '',
      'def load_parquet(conn: psycopg.Connection, table: str, uri: str) -> int:',
      '    frame = pl.read_parquet(uri)',
      '    buf = io.BytesIO()',
      '    frame.write_csv(buf)',
      '    buf.seek(0)',
      '    with conn.cursor() as cur, cur.copy(f"COPY {table} FROM STDIN WITH (FORMAT csv, HEADER true)") as copy:',
      '        copy.write(buf.read())',
      '    return frame.height',
    ),
    about: 'warehouse.py loads a parquet file from the lake into a Postgres staging table: it reads it with polars, turns it into CSV in memory and streams it through COPY FROM STDIN with psycopg 3. It returns the number of rows loaded.',
  },
  {
    path: 'dags/daily_orders.py',
    content: lines(
      'import pendulum',
      'from airflow.decorators import dag, task',
      '',
      '',
      '@dag(schedule="0 3 * * *", start_date=pendulum.datetime(2026, 1, 1, tz="UTC"), catchup=False, tags=["orders"])',
      'def daily_orders():',
      '    @task',
      '    def extract(ds=None):',
      '        from pipeline.extract.orders import extract_orders',
      '        return extract_orders(ds, ShopClient.from_conn("shop_api"))',
      '',
      '    load(extract()) >> dbt_build()',
      '',
      '',
      'daily_orders()',
    ),
    about: 'daily_orders.py is the Airflow DAG that runs at 03:00 UTC: it extracts the previous day of orders to the lake, loads them into the staging schema of the warehouse and then runs dbt build for the order models.',
  },
  {
    path: 'pipeline/transform/currency.py',
    content: lines(
      'from decimal import Decimal',
      '',
      'import polars as pl',
      '',
      '',
      'def to_eur(frame: pl.DataFrame, rates: dict[str, Decimal]) -> pl.DataFrame:',
      '    rate = pl.col("currency").replace_strict(rates, return_dtype=pl.Decimal(18, 6))',
      '    return frame.with_columns((pl.col("amount") * rate).round(2).alias("amount_eur"))',
    ),
    about: 'currency.py converts order amounts to euros before they are loaded: it maps each row\'s currency code to the day\'s rate and adds an amount_eur column rounded to cents.',
  },
  {
    path: 'dbt/models/marts/fct_orders.sql',
    content: lines(
      "{{ config(materialized='incremental', unique_key='order_id') }}",
      '',
      'select',
      '    o.order_id,',
      '    o.customer_id,',
      '    o.ordered_at,',
      '    o.amount_eur,',
      '    o.status',
      "from {{ ref('stg_orders') }} o",
      '{% if is_incremental() %}',
      'where o.updated_at > (select max(updated_at) from {{ this }})',
      '{% endif %}',
    ),
    about: 'fct_orders.sql is the incremental dbt model behind the revenue dashboards: one row per order from stg_orders, and on incremental runs only the orders updated since the newest row already in the table.',
  },
  {
    path: 'pipeline/settings.py',
    content: lines(
      'from pydantic_settings import BaseSettings, SettingsConfigDict',
      '',
      '',
      'class Settings(BaseSettings):',
      '    model_config = SettingsConfigDict(env_prefix="PIPELINE_")',
      '',
      '    lake_bucket: str = "nw-lake"',
      '    warehouse_dsn: str',
      '    shop_api_base: str = "https://api.shop.example/v2"',
      '',
      '',
      'settings = Settings()',
    ),
    about: 'settings.py reads the pipeline configuration from PIPELINE_-prefixed environment variables with pydantic-settings: the lake bucket, the warehouse DSN (required) and the shop API base URL.',
  },
];

const TEST_FILES = [
  'tests/extract/test_orders.py', 'tests/extract/test_customers.py', 'tests/extract/test_pagination.py', 'tests/load/test_warehouse.py',
  'tests/load/test_staging.py', 'tests/transform/test_currency.py', 'tests/transform/test_pii.py', 'tests/dags/test_dag_integrity.py',
  'tests/dags/test_callbacks.py', 'tests/clients/test_shop.py', 'tests/test_lake.py', 'tests/test_settings.py',
];

const PYTEST_HEAD = (rng: Rng, n: number): string[] => [
  '============================= test session starts ==============================',
  'platform linux -- Python 3.11.9, pytest-8.3.3, pluggy-1.5.0',
  `rootdir: ${ROOT}`,
  'configfile: pyproject.toml',
  `plugins: mock-3.14.0, cov-5.0.0, xdist-3.6.1, randomly-3.15.0`,
  `Using --randomly-seed=${rng.int(100000000, 999999999)}`,
  `collected ${n} items`,
  '',
];

function pytestPass(rng: Rng, n: number): string {
  const per = TEST_FILES.map(() => 1);
  for (let left = n - per.length; left > 0; left--) per[rng.int(0, per.length - 1)]++;
  let done = 0;
  const rows = TEST_FILES.map((f, i) => {
    done += per[i];
    return `${f} ${'.'.repeat(Math.min(per[i], 40))}`.padEnd(72) + `[${String(Math.round((done / n) * 100)).padStart(3)}%]`;
  });
  return lines(...PYTEST_HEAD(rng, n), ...rows, '', `============================= ${n} passed in ${rng.int(4, 19)}.${rng.int(10, 99)}s ==============================`);
}

const VOCAB: Vocab = {
  testCmd: 'poetry run pytest',
  testPass: pytestPass,
  testFail: (rng, n, name, file) => lines(
    ...PYTEST_HEAD(rng, n),
    `${file} .F.`.padEnd(72) + '[  2%]',
    '',
    '=================================== FAILURES ===================================',
    `_________________________ test_${name.replace(/\W+/g, '_')} _________________________`,
    '',
    '    def test_empty_input():',
    '        result = run([])',
    '>       assert result is None',
    'E       assert [] is None',
    '',
    `${file}:${rng.int(8, 40)}: AssertionError`,
    '=========================== short test summary info ============================',
    `FAILED ${file}::test_${name.replace(/\W+/g, '_')} - assert [] is None`,
    `========================= 1 failed, ${n - 1} passed in ${rng.int(4, 19)}.${rng.int(10, 99)}s =========================`,
  ),
  testCount: [150, 230],
  lintCmd: 'poetry run ruff check .',
  lintFail: (file, rng) => {
    const count = rng.int(1, 4);
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      out.push(`${file}:${rng.int(2, 60)}:${rng.int(1, 30)}: ${rng.pick(['F401 [*] `typing.Optional` imported but unused', 'F841 Local variable `rows` is assigned to but never used', 'E501 Line too long (131 > 120)', 'B008 Do not perform function call `datetime.now` in argument defaults', 'UP006 [*] Use `list` instead of `List` for type annotation'])}`);
    }
    out.push(`Found ${count} error${count > 1 ? 's' : ''}.`, '[*] 1 fixable with the `--fix` option.');
    return { output: out.join('\n'), count };
  },
  lintOk: 'All checks passed!',
  installCmd: (dep, version) => `poetry add ${dep}@^${version}`,
  installOut: (rng) => `Updating dependencies\nResolving dependencies... (${rng.int(1, 9)}.${rng.int(1, 9)}s)\n\nPackage operations: 0 installs, ${rng.int(1, 3)} updates, 0 removals\n\nWriting lock file`,
  manifest: 'pyproject.toml',
  manifestLine: (dep, v) => `${dep} = "^${v}"`,
  deps: [
    { name: 'polars', from: '1.9.0', to: '1.12.0' },
    { name: 'pyarrow', from: '17.0.0', to: '18.0.0' },
    { name: 'boto3', from: '1.35.20', to: '1.35.49' },
    { name: 'psycopg', from: '3.2.1', to: '3.2.3' },
    { name: 'dbt-postgres', from: '1.8.2', to: '1.8.7' },
    { name: 'pytest', from: '8.3.2', to: '8.3.3' },
    { name: 'pydantic-settings', from: '2.4.0', to: '2.6.0' },
  ],
  files: FILES,
  testFor: (f) => {
    const name = (f.path.split('/').pop() ?? f.path).replace(/\.(py|sql)$/, '');
    const dir = f.path.startsWith('pipeline/') ? f.path.split('/').slice(1, -1).join('/') : f.path.startsWith('dags/') ? 'dags' : 'dbt';
    return {
      path: `tests/${dir ? `${dir}/` : ''}test_${name}.py`,
      body: (n) => lines('import pytest', '', ...Array.from({ length: n }, (_, i) => `def test_${name}_case_${i + 1}():\n    assert True\n`)),
    };
  },
  expectationFix: ['assert result is None', 'assert result == []'],
  renames: [
    { from: 'load_parquet', to: 'copy_parquet_into', files: ['pipeline/load/warehouse.py', 'dags/daily_orders.py', 'tests/load/test_warehouse.py'] },
    { from: 'raw_path', to: 'lake_key', files: ['pipeline/lake.py', 'pipeline/extract/orders.py', 'pipeline/extract/customers.py'] },
    { from: 'to_eur', to: 'convert_to_eur', files: ['pipeline/transform/currency.py', 'dags/daily_orders.py', 'tests/transform/test_currency.py'] },
  ],
  diffStat: diffStatOf(FILES),
  asides: [
    { q: 'quick one: list comprehension vs generator expression, when does it matter?', a: 'A list comprehension builds the whole list at once; a generator expression yields items lazily, so it matters when the input is large or you only consume it once (sum(), any()). If you need len() or to iterate twice, use the list.', fact: 'generator expression' },
    { q: 'how do I see which process is listening on port 8080?', a: 'Run `ss -ltnp | grep 8080` (or `lsof -i :8080`); the last column names the process and its pid.', fact: 'port 8080' },
    { q: 'what does `set -euo pipefail` actually do in a bash script?', a: '-e exits on the first failing command, -u treats unset variables as errors, and pipefail makes a pipeline fail when any command in it fails instead of only the last one.', fact: 'pipefail' },
  ],
};

/** The header of a run of only the tests/load folder (a reproduction with a fixed seed). */
const PYTEST_HEAD_STATIC = [
  '============================= test session starts ==============================',
  'platform linux -- Python 3.11.9, pytest-8.3.3, pluggy-1.5.0',
  `rootdir: ${ROOT}`,
  'configfile: pyproject.toml',
  'plugins: mock-3.14.0, cov-5.0.0, xdist-3.6.1, randomly-3.15.0',
  'Using --randomly-seed=3090417',
  'collected 4 items',
  '',
];

const EPISODES: Episode[] = [
  {
    id: 'poetry-make-dev',
    day: 0,
    turns: [turn(
      'add polars to the project and give me a make target that sets up a fresh checkout. we use poetry for everything here — never pip install into the venv by hand, and no requirements.txt in the repo',
      [
        rd('pyproject.toml', lines('[tool.poetry]', 'name = "pipeline-etl"', 'version = "0.9.0"', '', '[tool.poetry.dependencies]', 'python = ">=3.11,<3.12"', 'pandas = "^2.2.2"', 'psycopg = {extras = ["binary"], version = "^3.2.1"}')),
        sh('poetry add polars@^1.9.0', 'Using version ^1.9.0 for polars\n\nUpdating dependencies\nResolving dependencies... (2.4s)\n\nPackage operations: 1 install, 0 updates, 0 removals\n\n  - Installing polars (1.9.0)\n\nWriting lock file'),
        say('Understood: Poetry only, so pyproject.toml and poetry.lock stay the single source of truth. I will not add a requirements.txt; where an image needs one it can be exported at build time.'),
        wr('Makefile', lines('.PHONY: dev test lint', '', 'dev:', '\tpoetry install --with dev --sync', '\tpoetry run pre-commit install', '', 'test:', '\tpoetry run pytest', '', 'lint:', '\tpoetry run ruff check . && poetry run ruff format --check .')),
        sh('make dev', 'poetry install --with dev --sync\nInstalling dependencies from lock file\n\nPackage operations: 3 installs, 0 updates, 0 removals\n\nInstalling the current project: pipeline-etl (0.9.0)\npoetry run pre-commit install\npre-commit installed at .git/hooks/pre-commit'),
      ],
      'polars 1.9 is a dependency; `make dev` installs the locked environment with Poetry (dev group, --sync) and the pre-commit hooks. No requirements.txt.',
    )],
    facts: ['make dev', 'polars'],
    q: [
      { ask: 'how are python dependencies managed in this repo?', kw: 'poetry dependencies lock', style: 'lit', also: ['docker-image-slim'] },
      { ask: 'what is the one command to get a new laptop ready to work on this?', kw: 'set up fresh checkout command', style: 'para' },
    ],
  },
  {
    id: 'lake-layout-zstd',
    day: 2,
    turns: [turn(
      'before we write anything to s3: how should the raw files be laid out? analysts will query them with duckdb too',
      [
        sh('aws s3 ls s3://nw-lake/ --recursive | head -5', '2026-08-06 10:02:11    1823401 tmp/orders_2026-08-05.parquet\n2026-08-06 10:02:12     912004 tmp/orders_2026-08-04.parquet'),
        say('Decision: hive-style partitions by load day, s3://nw-lake/raw/<entity>/dt=YYYY-MM-DD/part-0000.parquet, one prefix per entity. DuckDB, polars and Athena all read dt= as a partition column, so a day can be rewritten by replacing one prefix. Compression zstd rather than snappy: about 30 % smaller on our order data for the same read speed.'),
        wr('pipeline/lake.py', 'from pipeline.settings import settings\n\n\ndef raw_path(entity: str, day: str, part: int = 0) -> str:\n    return f"s3://{settings.lake_bucket}/raw/{entity}/dt={day}/part-{part:04d}.parquet"\n'),
        sh('poetry run python -c "import polars as pl; f=pl.read_parquet(\'tmp/orders_2026-08-05.parquet\'); f.write_parquet(\'/tmp/s.parquet\', compression=\'snappy\'); f.write_parquet(\'/tmp/z.parquet\', compression=\'zstd\')" && ls -l /tmp/s.parquet /tmp/z.parquet', '-rw-r--r-- 1 dev dev 1823401 Aug  6 10:14 /tmp/s.parquet\n-rw-r--r-- 1 dev dev 1264880 Aug  6 10:14 /tmp/z.parquet'),
      ],
      'Lake layout: raw/<entity>/dt=YYYY-MM-DD/part-NNNN.parquet (hive partitions), zstd compression; raw_path() in pipeline/lake.py builds the keys.',
    )],
    facts: ['dt=YYYY-MM-DD', 'zstd'],
    q: [
      { ask: 'how are the raw parquet files partitioned in the lake?', kw: 'parquet partition dt= s3 layout', style: 'lit' },
    ],
  },
  {
    id: 'airflow-catchup-flood',
    day: 4,
    turns: [turn(
      'I just deployed the daily_orders DAG and airflow kicked off like 200 runs at once. the shop API is now answering 429 to everyone, including the support team. stop it',
      [
        sh('airflow dags list-runs -d daily_orders --state running | head -6', 'dag_id       | run_id                               | state   | execution_date\n=============+======================================+=========+==========================\ndaily_orders | scheduled__2026-01-01T03:00:00+00:00 | running | 2026-01-01T03:00:00+00:00\ndaily_orders | scheduled__2026-01-02T03:00:00+00:00 | running | 2026-01-02T03:00:00+00:00\ndaily_orders | scheduled__2026-01-03T03:00:00+00:00 | running | 2026-01-03T03:00:00+00:00'),
        sh('airflow dags pause daily_orders', 'Dag: daily_orders, paused: True'),
        rd('dags/daily_orders.py', '@dag(schedule="0 3 * * *", start_date=pendulum.datetime(2026, 1, 1, tz="UTC"), tags=["orders"])'),
        say('The DAG has start_date 2026-01-01 and no catchup argument, and catchup defaults to True in our airflow.cfg, so the scheduler created a run for every day since January and started as many as max_active_runs_per_dag (16) allowed, each hammering the shop API. Two fixes: catchup=False (history is loaded with an explicit backfill instead) and max_active_runs=1.'),
        ed('dags/daily_orders.py', 'start_date=pendulum.datetime(2026, 1, 1, tz="UTC"), tags=["orders"])', 'start_date=pendulum.datetime(2026, 1, 1, tz="UTC"), catchup=False, max_active_runs=1, tags=["orders"])'),
        sh('airflow tasks clear daily_orders -s 2026-01-01 -e 2026-08-06 --yes --only-running && airflow dags delete-runs daily_orders --state queued', 'Clearing 612 task instances\nDeleted 187 dag runs'),
        sh('airflow dags unpause daily_orders', 'Dag: daily_orders, paused: False'),
      ],
      'Paused the DAG, cleared the 187 catch-up runs; daily_orders now has catchup=False and max_active_runs=1, so only the latest interval runs.',
    )],
    facts: ['200 runs at once', 'catchup=False'],
    q: [
      { ask: 'why did the scheduler suddenly start hundreds of old runs right after we shipped a new workflow?', kw: 'scheduler hundreds old runs new workflow', style: 'para' },
      { ask: 'daily_orders catchup start_date 429 from shop API', kw: 'catchup max_active_runs daily_orders', style: 'lit' },
    ],
  },
  {
    id: 'tz-partition-day',
    day: 7,
    turns: [turn(
      'finance says our daily order counts never match the shop admin for the same day. off by 40-80 orders, always',
      [
        sh("psql $WAREHOUSE_DSN -c \"select date(ordered_at) d, count(*) from stg_orders where ordered_at >= '2026-08-10' group by 1 order by 1\"", '     d      | count\n------------+-------\n 2026-08-10 |  2113\n 2026-08-11 |  2087\n 2026-08-12 |  2201\n(3 rows)'),
        sh("curl -s \"$SHOP_API/reports/orders?from=2026-08-10&to=2026-08-12\" -H \"x-api-key: $SHOP_KEY\" | jq '.days[] | [.day, .orders]' -c", '["2026-08-10",2049]\n["2026-08-11",2151]\n["2026-08-12",2166]'),
        say('The shop admin groups orders by the store\'s local day (America/Chicago), while our stg_orders.ordered_at is UTC and date() cuts at UTC midnight. Everything ordered between 19:00 and midnight Chicago time is counted on the next day on our side. The data is right; the day boundary is not. The fix belongs in the staging model, with the store time zone as a variable.'),
        ed('dbt/models/staging/stg_orders.sql', '    ordered_at,', "    ordered_at,\n    (ordered_at at time zone '{{ var(\"store_tz\", \"America/Chicago\") }}')::date as order_day,"),
        ed('dbt/models/marts/fct_daily_orders.sql', 'date(ordered_at) as day', 'order_day as day'),
        sh('poetry run dbt build --select stg_orders+ fct_daily_orders', '12:04:11  Running with dbt=1.8.7\n12:04:13  Found 31 models, 88 data tests, 6 sources\n12:04:19  1 of 9 OK created sql view model staging.stg_orders ........... [CREATE VIEW in 0.21s]\n12:04:41  9 of 9 PASS not_null_fct_daily_orders_day ..................... [PASS in 0.09s]\n12:04:41  Completed successfully\n12:04:41  Done. PASS=9 WARN=0 ERROR=0 SKIP=0 TOTAL=9'),
      ],
      'Daily counts now use order_day, the order date in the store\'s time zone (var store_tz, America/Chicago), and match the shop admin.',
    )],
    facts: ['daily order counts never match', 'order_day'],
    q: [
      { ask: 'why did our per-day totals disagree with the figures the storefront showed for the same date?', kw: 'per-day totals disagree storefront', style: 'para' },
      { ask: 'order counts per day differ from the shop admin: UTC vs America/Chicago', kw: 'order_day store_tz America/Chicago', style: 'lit' },
    ],
  },
  {
    id: 'extract-oom-polars-lazy',
    day: 9,
    turns: [turn(
      'extract_customers keeps dying on the worker, the log just says the task exited with return code Negsignal.SIGKILL',
      [
        sh('airflow tasks logs daily_customers extract_customers 2026-08-13T03:00:00+00:00 | tail -4', "[2026-08-14, 03:21:07 UTC] {local_task_job_runner.py:240} INFO - Task exited with return code Negsignal.SIGKILL\n[2026-08-14, 03:21:07 UTC] {taskinstance.py:3498} ERROR - Received SIGTERM. Terminating subprocesses.\n[2026-08-14, 03:21:07 UTC] {standard_task_runner.py:110} ERROR - Failed to execute job 40121 for task extract_customers"),
        sh('kubectl -n airflow describe pod worker-2 | grep -A3 "Last State"', '    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137'),
        rd('pipeline/extract/customers.py', 'def extract_customers(day: str, client: ShopClient) -> str:\n    rows = []\n    for page in client.customers(updated_on=day):\n        rows.extend(page)\n    frame = pd.DataFrame(rows)\n    frame.to_parquet(raw_path("customers", day))'),
        say('The kernel OOM-kills the worker pod: the extract keeps every page as Python dicts, then pandas copies them into a DataFrame, so peak memory is about three times the data. The customer backfill days are 6 GB of JSON against a 4 GiB limit. Writing each page to its own parquet part as it arrives keeps memory at one page.'),
        ed('pipeline/extract/customers.py', '    rows = []\n    for page in client.customers(updated_on=day):\n        rows.extend(page)\n    frame = pd.DataFrame(rows)\n    frame.to_parquet(raw_path("customers", day))', '    for part, page in enumerate(client.customers(updated_on=day)):\n        pl.DataFrame(page, schema=CUSTOMER_SCHEMA).write_parquet(raw_path("customers", day, part), compression="zstd")'),
        sh('/usr/bin/time -v poetry run python -m pipeline.extract.customers 2026-08-13 2>&1 | grep "Maximum resident"', '\tMaximum resident set size (kbytes): 412880'),
      ],
      'extract_customers writes one parquet part per API page with polars instead of building one pandas DataFrame; peak memory is ~400 MB instead of OOMKilled at 4 GiB.',
    )],
    facts: ['Negsignal.SIGKILL', 'one parquet part per API page'],
    q: [
      { ask: 'why was extract_customers killed with SIGKILL / OOMKilled on the worker?', kw: 'SIGKILL OOMKilled extract_customers', style: 'lit' },
      { ask: 'what did we do when the nightly job kept running out of RAM?', kw: 'nightly job out of RAM', style: 'para' },
    ],
  },
  {
    id: 'flaky-moto-bucket',
    day: 11,
    turns: [turn(
      'tests/load/test_warehouse.py is flaky — fails maybe one run in four with NoSuchBucket, then passes on retry. figure it out',
      [
        sh('poetry run pytest tests/load -p randomly -p no:cacheprovider --randomly-seed=3090417', lines(
          ...PYTEST_HEAD_STATIC,
          'tests/load/test_warehouse.py ..F.                                        [100%]',
          '',
          '=================================== FAILURES ===================================',
          '_____________________ test_load_parquet_counts_rows ______________________',
          '',
          "    def test_load_parquet_counts_rows(pg_conn):",
          '>       uri = upload_fixture("orders.parquet")',
          '',
          'tests/load/test_warehouse.py:41:',
          '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _',
          "E   botocore.errorfactory.NoSuchBucket: An error occurred (NoSuchBucket) when calling the PutObject operation: The specified bucket does not exist",
          '=========================== short test summary info ============================',
          'FAILED tests/load/test_warehouse.py::test_load_parquet_counts_rows - botocore.errorfactory.NoSuchBucket',
          '========================= 1 failed, 3 passed in 2.81s ==========================',
        ), 1),
        rd('tests/conftest.py', '@pytest.fixture(scope="module")\ndef lake():\n    with mock_aws():\n        boto3.client("s3").create_bucket(Bucket="nw-lake")\n        yield\n\n\ndef upload_fixture(name):\n    boto3.client("s3").upload_file(f"tests/data/{name}", "nw-lake", name)'),
        say('It depends on test order, which pytest-randomly shuffles each run: the bucket exists only inside the module-scoped lake fixture, and test_load_parquet_counts_rows never requests it. It passes when another test of the module opened the fixture first and fails when it runs first. Making the moto fixture function-scoped and autouse for tests/load removes the order dependence.'),
        ed('tests/conftest.py', '@pytest.fixture(scope="module")\ndef lake():', '@pytest.fixture(autouse=True)\ndef lake(monkeypatch):\n    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-central-1")'),
        sh('for s in 1 2 3 4 5 6 7 8; do poetry run pytest tests/load -q -p randomly --randomly-seed=$s | tail -1; done', '4 passed in 1.92s\n4 passed in 1.88s\n4 passed in 1.90s\n4 passed in 1.95s\n4 passed in 1.87s\n4 passed in 1.93s\n4 passed in 1.91s\n4 passed in 1.89s'),
      ],
      'The flaky NoSuchBucket came from test order: the moto bucket lived in a module-scoped fixture one test never requested. The fixture is now function-scoped and autouse; 8 random orders pass.',
    )],
    facts: ['NoSuchBucket', 'function-scoped'],
    q: [
      { ask: 'why did test_warehouse fail intermittently with NoSuchBucket?', kw: 'NoSuchBucket moto fixture flaky', style: 'lit' },
      { ask: 'that storage test which only broke in some orderings — what was behind it?', kw: 'test breaks depending on order', style: 'para' },
    ],
  },
  {
    id: 'dbt-incremental-dupes',
    day: 14,
    turns: [turn(
      'the revenue dashboard is ~3% higher than finance for last week. I think fct_orders has duplicates',
      [
        sh("psql $WAREHOUSE_DSN -c \"select order_id, count(*) from marts.fct_orders group by 1 having count(*) > 1 limit 3\"", ' order_id  | count\n-----------+-------\n 100482113 |     2\n 100482190 |     3\n 100482214 |     2\n(3 rows)'),
        rd('dbt/models/marts/fct_orders.sql', "{{ config(materialized='incremental') }}\n\nselect o.order_id, o.customer_id, o.ordered_at, o.amount_eur, o.status\nfrom {{ ref('stg_orders') }} o\n{% if is_incremental() %}\nwhere o.updated_at > (select max(updated_at) from {{ this }})\n{% endif %}"),
        say('Yes: the incremental model has no unique_key, so dbt appends. When an order changes after it was first loaded (refund, status update) its new version is appended next to the old one, and revenue counts it twice. With unique_key=order_id and the delete+insert strategy, the changed orders replace their old rows. I am also adding a unique test so this fails the build instead of the dashboard.'),
        ed('dbt/models/marts/fct_orders.sql', "{{ config(materialized='incremental') }}", "{{ config(materialized='incremental', unique_key='order_id', incremental_strategy='delete+insert') }}"),
        ed('dbt/models/marts/schema.yml', '      - name: order_id', '      - name: order_id\n        data_tests: [unique, not_null]'),
        sh('poetry run dbt build --select fct_orders --full-refresh', '09:31:02  Running with dbt=1.8.7\n09:31:40  1 of 3 OK created sql incremental model marts.fct_orders ...... [SELECT 4182290 in 37.12s]\n09:31:41  2 of 3 PASS unique_fct_orders_order_id ........................ [PASS in 0.84s]\n09:31:41  3 of 3 PASS not_null_fct_orders_order_id ...................... [PASS in 0.31s]\n09:31:41  Done. PASS=3 WARN=0 ERROR=0 SKIP=0 TOTAL=3'),
      ],
      'fct_orders is incremental with unique_key=order_id (delete+insert), rebuilt with --full-refresh; a unique test on order_id guards it. Revenue matches finance.',
    )],
    facts: ['duplicates', "unique_key='order_id'"],
    q: [
      { ask: 'why did the revenue mart count some purchases more than once?', kw: 'revenue counted twice', style: 'para' },
      { ask: 'duplicate order_id rows in fct_orders incremental model', kw: 'fct_orders unique_key delete+insert', style: 'lit' },
    ],
  },
  {
    id: 'copy-empty-numeric',
    day: 16,
    turns: [turn(
      'load_orders fails since this morning: psycopg.errors.InvalidTextRepresentation on the discount column',
      [
        sh('airflow tasks logs daily_orders load 2026-08-25T03:00:00+00:00 | grep -B2 -A4 Traceback', lines(
          'Traceback (most recent call last):',
          '  File "/opt/airflow/pipeline/load/warehouse.py", line 14, in load_parquet',
          '    copy.write(buf.read())',
          '  File "/opt/airflow/.venv/lib/python3.11/site-packages/psycopg/cursor.py", line 1004, in __exit__',
          '    self._conn.wait(self._end_copy_gen(exc))',
          'psycopg.errors.InvalidTextRepresentation: invalid input syntax for type numeric: "n/a"',
          'CONTEXT:  COPY stg_orders, line 1882, column discount: "n/a"',
        ), 0),
        sh("poetry run python -c \"import polars as pl; print(pl.read_parquet('s3://nw-lake/raw/orders/dt=2026-08-25/part-0000.parquet')['discount'].value_counts().sort('count').tail(3))\"", "shape: (3, 2)\n┌──────────┬───────┐\n│ discount ┆ count │\n╞══════════╪═══════╡\n│ 5.00     ┆ 211   │\n│ n/a      ┆ 388   │\n│          ┆ 1290  │\n└──────────┴───────┘"),
        say('The shop started sending the discount as a string: "" and "n/a" when there is none, numbers as text otherwise. We never typed the column, so it arrived as Utf8 and COPY handed "n/a" to a numeric column. The right place is the extract: cast with an explicit schema, map ""/"n/a" to null, and keep the raw string column for audit.'),
        ed('pipeline/extract/orders.py', '    frame = pl.concat(pages, how="vertical")', '    frame = pl.concat(pages, how="vertical").with_columns(\n        pl.col("discount").replace({"": None, "n/a": None}).cast(pl.Decimal(12, 2)).alias("discount"),\n    )'),
        sh('poetry run pytest tests/extract/test_orders.py -q', '.........                                                                [100%]\n9 passed in 0.61s'),
        sh('airflow tasks clear daily_orders -t "extract|load" -s 2026-08-25 -e 2026-08-25 --yes', 'Clearing 2 task instances'),
      ],
      'Discounts are cast to Decimal(12,2) at extract with "" and "n/a" mapped to null; the 25 August load was re-run.',
    )],
    facts: ['InvalidTextRepresentation', 'Decimal(12,2)'],
    q: [
      { ask: 'invalid input syntax for type numeric "n/a" on COPY into stg_orders', kw: 'InvalidTextRepresentation numeric COPY discount', style: 'lit' },
      { ask: 'the warehouse load choked on blank or placeholder discount values — how do we handle those now?', kw: 'placeholder values load failure', style: 'para' },
    ],
  },
  {
    id: 'ci-venv-cache-python',
    day: 18,
    turns: [turn(
      'CI is broken on every PR since yesterday with a pydantic import error, but nobody touched the dependencies',
      [
        sh('gh run view 10488213 --log-failed', lines(
          'test\tImportError while loading conftest \'/home/runner/work/pipeline-etl/pipeline-etl/tests/conftest.py\'.',
          'test\ttests/conftest.py:5: in <module>',
          'test\t    from pipeline.settings import settings',
          'test\t.venv/lib/python3.11/site-packages/pydantic/__init__.py:404: in __getattr__',
          "test\tModuleNotFoundError: No module named 'pydantic_core._pydantic_core'",
          'test\tError: Process completed with exit code 4.',
        ), 0),
        rd('.github/workflows/ci.yml', lines('      - uses: actions/setup-python@v5', '        id: py', '        with:', "          python-version: '3.x'", '      - uses: actions/cache@v4', '        with:', '          path: .venv', "          key: venv-${{ hashFiles('poetry.lock') }}", '      - run: poetry install --with dev')),
        say('The cache key is only the lockfile hash. setup-python with \'3.x\' moved to 3.12 yesterday, the job restored a .venv built under 3.11 (same lock, same key), and the compiled pydantic_core extension for cp311 cannot load in 3.12. Poetry sees a venv and installs nothing. Two fixes: pin the interpreter from .python-version, and put the Python version in the cache key.'),
        ed('.github/workflows/ci.yml', "          python-version: '3.x'", '          python-version-file: .python-version'),
        ed('.github/workflows/ci.yml', "          key: venv-${{ hashFiles('poetry.lock') }}", "          key: venv-${{ runner.os }}-py${{ steps.py.outputs.python-version }}-${{ hashFiles('poetry.lock') }}"),
        sh('git push origin fix/ci-cache && gh run watch', '✓ lint in 31s\n✓ test in 3m02s\n✓ CI (fix/ci-cache) completed with success'),
      ],
      'CI is green: the venv cache key now includes the OS and the exact Python version, and setup-python reads .python-version instead of 3.x.',
    )],
    facts: ['pydantic import error', 'cache key'],
    q: [
      { ask: "ModuleNotFoundError: No module named 'pydantic_core._pydantic_core' in CI", kw: 'pydantic_core ModuleNotFoundError CI cache', style: 'lit' },
      { ask: 'why did the automated checks break on a compiled library even though nothing in our dependencies changed?', kw: 'compiled library broke unchanged deps', style: 'para' },
    ],
  },
  {
    id: 'python-311-pin',
    day: 20,
    turns: [turn(
      'can we move to python 3.12? for the record: new data jobs should target 3.12, but this repo stays on 3.11 as long as our Airflow constraints file has no 3.12 build',
      [
        rd('.python-version', '3.11.9'),
        sh('curl -sI https://raw.githubusercontent.com/apache/airflow/constraints-2.9.3/constraints-3.12.txt | head -1', 'HTTP/2 404'),
        say('Agreed. The Airflow 2.9.3 constraints we install with exist for 3.8–3.11 only, so the worker image cannot be built on 3.12 without unconstrained resolution. pyproject already says python = ">=3.11,<3.12"; I wrote the reason next to it so the bound is not "fixed" by accident.'),
        ed('pyproject.toml', 'python = ">=3.11,<3.12"', '# 3.11 until the Airflow constraints file we pin ships a 3.12 variant; new jobs elsewhere start on 3.12\npython = ">=3.11,<3.12"'),
        ed('README.md', '## Requirements', '## Requirements\n\nPython 3.11 (.python-version). Newer data jobs start on 3.12; this repo follows once Airflow publishes 3.12 constraints for the version we run.'),
      ],
      'Stays on Python 3.11 (.python-version, pyproject bound); README says new jobs target 3.12 and this repo follows when the Airflow constraints do.',
    )],
    facts: ['3.12', 'stays on Python 3.11'],
    q: [
      { ask: 'which Python version is this project pinned to, and why?', kw: 'python 3.11 pin airflow constraints', style: 'lit' },
      { ask: 'what interpreter release should a brand-new data job start on?', kw: 'interpreter for new jobs', style: 'para' },
    ],
  },
  {
    id: 'airflow-connections-secrets',
    day: 22,
    turns: [turn(
      'I found the warehouse password in plain text in dags/daily_customers.py. please move it somewhere proper. and from now on no credentials in DAG files, ever',
      [
        gr('password=', 'dags/daily_customers.py:12:    conn = psycopg.connect(host="wh.internal", user="etl", password="Hq7-plw2!x", dbname="warehouse")'),
        say('Agreed, no credentials in DAG code. Airflow connections are the place: on the workers they come from AIRFLOW_CONN_* environment variables injected from the Kubernetes secret, locally from .env. The tasks ask the hook for a connection by id, so the same code runs everywhere. The leaked password has to be rotated too; it is in git history.'),
        ed('dags/daily_customers.py', '    conn = psycopg.connect(host="wh.internal", user="etl", password="Hq7-plw2!x", dbname="warehouse")', '    conn = PostgresHook(postgres_conn_id="warehouse").get_conn()'),
        sh('kubectl -n airflow create secret generic airflow-connections --from-literal=AIRFLOW_CONN_WAREHOUSE="postgresql://etl:$(pass show wh/etl)@wh.internal:5432/warehouse" --dry-run=client -o yaml | kubectl apply -f -', 'secret/airflow-connections configured'),
        sh("psql $WAREHOUSE_ADMIN_DSN -c \"alter role etl password '$(pass show wh/etl)'\"", 'ALTER ROLE'),
      ],
      'The warehouse credentials are an Airflow connection (AIRFLOW_CONN_WAREHOUSE from the airflow-connections secret); the DAG uses PostgresHook("warehouse") and the old password was rotated.',
    )],
    facts: ['password in plain text', 'AIRFLOW_CONN_WAREHOUSE'],
    q: [
      { ask: 'where should database secrets for the workflows live?', kw: 'workflow database secrets storage', style: 'para' },
      { ask: 'AIRFLOW_CONN_WAREHOUSE connection and PostgresHook', kw: 'AIRFLOW_CONN_WAREHOUSE PostgresHook', style: 'lit' },
    ],
  },
  {
    id: 'dq-dbt-expectations',
    day: 24,
    turns: [turn(
      'we need data quality checks on the marts. great expectations or something else?',
      [
        sh('poetry show --tree great-expectations 2>/dev/null | head -3 || poetry add --dry-run great-expectations | tail -4', 'Package operations: 47 installs, 3 updates, 0 removals\n  - Updating numpy (1.26.4 -> 1.26.4)\n  - Installing altair (4.2.2)\n  - Installing great-expectations (0.18.19)'),
        say('My recommendation: no Great Expectations for now. Our checks are all on tables dbt builds, dbt tests already run in the same build and stop downstream models, and the dbt-expectations package gives us the GE-style checks (row count ranges, value between, recency) as plain dbt tests. GE would add 47 packages, a second config tree and its own results store. If we ever validate files before they reach the warehouse, we revisit.'),
        wr('dbt/packages.yml', 'packages:\n  - package: calogica/dbt_expectations\n    version: [">=0.10.0", "<0.11.0"]\n'),
        ed('dbt/models/marts/schema.yml', '  - name: fct_orders', "  - name: fct_orders\n    data_tests:\n      - dbt_expectations.expect_table_row_count_to_be_between:\n          min_value: 1000\n      - dbt_expectations.expect_row_values_to_have_recent_data:\n          datepart: day\n          interval: 2\n          column: ordered_at"),
        sh('poetry run dbt deps && poetry run dbt test --select fct_orders', '10:12:03  Installing calogica/dbt_expectations\n10:12:05  Installed from version 0.10.4\n10:12:19  Done. PASS=4 WARN=0 ERROR=0 SKIP=0 TOTAL=4'),
      ],
      'Decision: data quality checks are dbt tests plus dbt-expectations (row counts, recency) in the same dbt build; no Great Expectations unless we validate files before loading.',
    )],
    facts: ['data quality checks', 'dbt-expectations'],
    q: [
      { ask: 'did we adopt a separate framework for validating table contents, or what do we use instead?', kw: 'validation framework tables', style: 'para' },
    ],
  },
  {
    id: 'schema-drift-struct',
    day: 26,
    turns: [turn(
      'extract for 2 sept failed with a polars SchemaError, nothing changed on our side',
      [
        sh('airflow tasks logs daily_orders extract 2026-09-02T03:00:00+00:00 | tail -6', lines(
          '  File "/opt/airflow/pipeline/extract/orders.py", line 8, in extract_orders',
          '    frame = pl.concat(pages, how="vertical")',
          '  File "/opt/airflow/.venv/lib/python3.11/site-packages/polars/functions/eager.py", line 182, in concat',
          '    out = wrap_df(plr.concat_df(elems))',
          'polars.exceptions.SchemaError: type Struct([Field { name: "channel", dtype: String }, Field { name: "carrier", dtype: String }]) is incompatible with expected type Null',
        ), 0),
        sh('curl -s "$SHOP_API/orders?updated_on=2026-09-02&page=14" -H "x-api-key: $SHOP_KEY" | jq ".orders[0].fulfillment"', '{\n  "channel": "marketplace",\n  "carrier": "ups"\n}'),
        say('The shop added a nested fulfillment object. Pages before it appeared have the field as all-null, so polars inferred Null for them and could not stack a Struct page on top. Inferring the schema per page is the real problem: the extract now declares ORDER_SCHEMA, drops fields it does not know (logged once per run, so we see new ones) and keeps fulfillment as a JSON string until someone needs it.'),
        wr('pipeline/extract/schema.py', 'import polars as pl\n\nORDER_SCHEMA = pl.Schema({\n    "order_id": pl.Int64, "customer_id": pl.Int64, "ordered_at": pl.Datetime("us", "UTC"),\n    "updated_at": pl.Datetime("us", "UTC"), "amount": pl.Decimal(12, 2), "currency": pl.String,\n    "discount": pl.String, "status": pl.String, "fulfillment": pl.String,\n})\n'),
        ed('pipeline/extract/orders.py', '    pages = [pl.DataFrame(page) for page in client.orders(updated_on=day)]', '    pages = [conform(page, ORDER_SCHEMA) for page in client.orders(updated_on=day)]'),
        sh('poetry run pytest tests/extract -q', '.......................                                                  [100%]\n23 passed in 1.44s'),
      ],
      'Order extracts use a declared ORDER_SCHEMA; unknown upstream fields are dropped and logged, fulfillment is kept as a JSON string. The 2 September run succeeded.',
    )],
    facts: ['SchemaError', 'ORDER_SCHEMA'],
    q: [
      { ask: 'polars SchemaError Struct incompatible with expected type Null in extract', kw: 'SchemaError Struct Null concat', style: 'lit' },
      { ask: 'what broke when the upstream system added a nested field to its payload?', kw: 'upstream new nested field broke', style: 'para' },
    ],
  },
  {
    id: 'dbt-ltv-index',
    day: 28,
    turns: [turn(
      'the nightly dbt build went from 12 to 55 minutes over the last two weeks. most of it is fct_customer_ltv',
      [
        sh('jq -r \'.results[] | [.unique_id, .execution_time] | @tsv\' dbt/target/run_results.json | sort -k2 -nr | head -3', 'model.pipeline.fct_customer_ltv\t2612.4\nmodel.pipeline.fct_orders\t141.9\nmodel.pipeline.dim_customers\t38.2'),
        sh("psql $WAREHOUSE_DSN -c \"explain select customer_id, sum(amount_eur) from staging.stg_order_lines group by 1\" | head -4", '                                  QUERY PLAN\n-------------------------------------------------------------------------------\n HashAggregate  (cost=4182231.20..4189102.55 rows=412338 width=40)\n   ->  Seq Scan on stg_order_lines  (cost=0.00..3211012.11 rows=194243811 width=14)'),
        say('stg_order_lines is now 194M rows and fct_customer_ltv joins it to orders on order_id, which has no index since dbt rebuilds the table every night; Postgres hashes the whole thing and spills to disk. stg_order_lines is a table we rebuild, so an index has to be created by the model itself, in a post-hook.'),
        ed('dbt/models/staging/stg_order_lines.sql', "{{ config(materialized='table') }}", "{{ config(\n    materialized='table',\n    post_hook=['create index if not exists {{ this.name }}_order_id_idx on {{ this }} (order_id)'],\n) }}"),
        sh('poetry run dbt build --select stg_order_lines+ fct_customer_ltv', '11:02:17  1 of 4 OK created sql table model staging.stg_order_lines ..... [SELECT 194243811 in 388.10s]\n11:10:02  3 of 4 OK created sql table model marts.fct_customer_ltv ...... [SELECT 412338 in 96.40s]\n11:10:02  Done. PASS=4 WARN=0 ERROR=0 SKIP=0 TOTAL=4'),
      ],
      'stg_order_lines creates an order_id index in a post-hook; fct_customer_ltv takes 96 s instead of 43 min, the nightly build is back near 14 minutes.',
    )],
    facts: ['55 minutes', 'post-hook'],
    q: [
      { ask: 'why did the overnight transformations get so slow, and what sped them up again?', kw: 'overnight transformations slow', style: 'para' },
      { ask: 'fct_customer_ltv slow seq scan stg_order_lines index post_hook', kw: 'fct_customer_ltv post_hook index', style: 'lit' },
    ],
  },
  {
    id: 'sensor-slot-starvation',
    day: 30,
    turns: [turn(
      'nothing has run since 3am. every task is queued, the workers look idle but all slots are taken',
      [
        sh('airflow tasks states-for-dag-run daily_marts scheduled__2026-09-09T04:00:00+00:00 | head -5', 'dag_id      | task_id            | state   \n============+====================+=========\ndaily_marts | wait_for_orders    | running \ndaily_marts | wait_for_customers | running \ndaily_marts | dbt_build          | None    '),
        sh('airflow pools list', 'pool         | slots | description\n=============+=======+==============\ndefault_pool | 16    | Default pool'),
        say('All 16 slots of default_pool are held by ExternalTaskSensors in poke mode: 8 DAGs with two sensors each, each sensor sleeping inside its slot while it waits for daily_orders, which itself is queued because no slot is free. A deadlock of waiting. Sensors in reschedule mode give the slot back between pokes.'),
        ed('dags/daily_marts.py', '    wait_for_orders = ExternalTaskSensor(task_id="wait_for_orders", external_dag_id="daily_orders", timeout=6 * 3600)', '    wait_for_orders = ExternalTaskSensor(task_id="wait_for_orders", external_dag_id="daily_orders", mode="reschedule", poke_interval=300, timeout=6 * 3600)'),
        sh('grep -rl "ExternalTaskSensor(" dags | xargs sed -i \'s/ExternalTaskSensor(/ExternalTaskSensor(mode="reschedule", /\' && poetry run pytest tests/dags -q', '..........                                                               [100%]\n10 passed in 6.21s'),
      ],
      'Every ExternalTaskSensor runs in reschedule mode (poke every 5 min), so waiting sensors no longer hold pool slots; the queue drained.',
    )],
    facts: ['all slots are taken', 'reschedule mode'],
    q: [
      { ask: 'why did everything sit queued with idle workers that morning?', kw: 'everything queued idle workers', style: 'para' },
      { ask: 'ExternalTaskSensor poke mode holding default_pool slots', kw: 'ExternalTaskSensor reschedule poke default_pool', style: 'lit' },
    ],
  },
  {
    id: 's3-slowdown-retries',
    day: 32,
    turns: [turn(
      'extract_events fails with SlowDown from s3 since we split events per hour',
      [
        sh('airflow tasks logs events_hourly extract_events 2026-09-14T10:00:00+00:00 | grep -m1 ClientError', 'botocore.exceptions.ClientError: An error occurred (SlowDown) when calling the PutObject operation (reached max retries: 4): Please reduce your request rate.'),
        sh('aws s3 ls s3://nw-lake/raw/events/dt=2026-09-14/ | wc -l', '18412'),
        say('We write 18k tiny parquet files a day under one prefix, one per page of 500 events, and S3 throttles PUTs on a single prefix. The retries use the legacy mode with 4 attempts. Fewer, bigger files is the fix (buffer pages to ~128 MB row groups), and adaptive retry mode for the remaining bursts.'),
        ed('pipeline/lake.py', 's3 = boto3.client("s3")', 's3 = boto3.client("s3", config=Config(retries={"mode": "adaptive", "max_attempts": 10}))'),
        ed('pipeline/extract/events.py', '    for part, page in enumerate(pages):\n        write_part(page, part)', '    for part, chunk in enumerate(batched_frames(pages, target_bytes=128 * 1024 * 1024)):\n        write_part(chunk, part)'),
        sh('poetry run python -m pipeline.extract.events 2026-09-14T10 && aws s3 ls s3://nw-lake/raw/events/dt=2026-09-14/hour=10/ | wc -l', '3'),
      ],
      'Events are buffered into ~128 MB parquet parts (3 files an hour instead of ~770) and boto3 uses adaptive retries; no more SlowDown.',
    )],
    facts: ['SlowDown', 'adaptive retries'],
    q: [
      { ask: 'the object store started throttling our writes — what did we change?', kw: 'object store throttling writes', style: 'para' },
      { ask: 'S3 SlowDown PutObject reached max retries extract_events', kw: 'SlowDown adaptive retries small files', style: 'lit' },
    ],
  },
  {
    id: 'dbt-slim-ci',
    day: 34,
    turns: [
      turn(
        'dbt in CI builds every model against the CI database, 25 minutes per PR. can it build only what changed?',
        [
          rd('.github/workflows/dbt.yml', '      - run: poetry run dbt build --target ci'),
          say('Slim CI: compare against the manifest of the last main build (state:modified+) and defer unchanged parents to the production schemas, so a PR builds its changed models and their children only. Main uploads its manifest as an artifact after each deploy.'),
          ed('.github/workflows/dbt.yml', '      - run: poetry run dbt build --target ci', '      - uses: dawidd6/action-download-artifact@v6\n        with: { workflow: dbt-deploy.yml, branch: main, name: dbt-manifest, path: prod-state }\n      - run: poetry run dbt build --target ci --select state:modified+ --defer --state prod-state'),
          sh('poetry run dbt ls --select state:modified+ --state prod-state', 'pipeline.marts.fct_orders\npipeline.marts.fct_daily_orders\npipeline.marts.fct_customer_ltv'),
        ],
        'PR builds run only state:modified+ models, deferring to production for the rest; this PR builds 3 models.',
      ),
      turn(
        'what happens on the first PR after someone renames a source? the manifest from main won\'t know it',
        [
          say('A renamed source shows as modified, so its children are selected and built; deferral only applies to unmodified parents. If the main manifest artifact is missing (expired after 90 days), the step falls back to a full build rather than failing.'),
          ed('.github/workflows/dbt.yml', '--select state:modified+ --defer --state prod-state', '${{ hashFiles(\'prod-state/manifest.json\') != \'\' && \'--select state:modified+ --defer --state prod-state\' || \'\' }}'),
        ],
        'Without a main manifest the CI job builds everything instead of failing.',
      ),
    ],
    facts: ['25 minutes per PR', 'state:modified+'],
    q: [
      { ask: 'how does CI build only the dbt models that changed?', kw: 'slim ci state:modified defer manifest', style: 'lit' },
      { ask: 'how do pull requests avoid rebuilding the entire warehouse?', kw: 'pull requests rebuild warehouse', style: 'para' },
      { ask: 'what does the dbt CI job do when the production manifest artifact is missing?', kw: 'manifest artifact missing fallback', style: 'lit', turn: 1 },
    ],
  },
  {
    id: 'mypy-strict-new-code',
    day: 36,
    turns: [turn(
      'turn on mypy for the pipeline package. new modules get full type hints, and no bare Any — that\'s the rule from now on',
      [
        sh('poetry run mypy pipeline', 'pipeline/load/warehouse.py:7: error: Function is missing a return type annotation  [no-untyped-def]\npipeline/clients/shop.py:22: error: Returning Any from function declared to return "list[dict[str, object]]"  [no-any-return]\nFound 37 errors in 9 files (checked 24 source files)'),
        say('Noted: typed code and no Any for new modules. 37 errors in old modules would block everyone today, so strict applies to the whole package, with per-module overrides for the nine old files listed explicitly — each one we touch comes off the list.'),
        ed('pyproject.toml', '[tool.ruff]', '[tool.mypy]\nstrict = true\nplugins = ["pydantic.mypy"]\n\n[[tool.mypy.overrides]]\nmodule = ["pipeline.clients.shop", "pipeline.load.warehouse", "pipeline.extract.customers"]\ndisallow_untyped_defs = false\nwarn_return_any = false\n\n[tool.ruff]'),
        ed('.pre-commit-config.yaml', '  - repo: local\n    hooks:', '  - repo: local\n    hooks:\n      - id: mypy\n        name: mypy\n        entry: poetry run mypy pipeline\n        language: system\n        pass_filenames: false'),
        sh('poetry run mypy pipeline', 'Success: no issues found in 24 source files'),
      ],
      'mypy --strict covers pipeline/ with an explicit override list for nine legacy modules; it runs in pre-commit. New modules must be fully typed, no Any.',
    )],
    facts: ['mypy', 'strict'],
    q: [
      { ask: 'how strict is type checking supposed to be for new modules here?', kw: 'type checking new modules rule', style: 'para' },
    ],
  },
  {
    id: 'pii-email-hash',
    day: 38,
    turns: [turn(
      'legal says customer emails and phone numbers must not be readable in the warehouse. analysts still need to join customers across systems',
      [
        gr('email', 'pipeline/extract/customers.py:14:    "email": pl.String,\ndbt/models/staging/stg_customers.sql:6:    email,\ndbt/models/marts/dim_customers.sql:9:    c.email,'),
        say('Hash them at extract, before anything lands in the lake: lower-cased and trimmed, HMAC-SHA256 with a key from the secret store. Same input, same hash, so joins across systems still work, but without the key nobody can reverse it by hashing a list of guesses. The raw values are never written.'),
        wr('pipeline/transform/pii.py', 'import hashlib\nimport hmac\n\nimport polars as pl\n\nfrom pipeline.settings import settings\n\n\ndef pseudonymize(col: str) -> pl.Expr:\n    key = settings.pii_key.get_secret_value().encode()\n    return pl.col(col).str.strip_chars().str.to_lowercase().map_elements(\n        lambda v: hmac.new(key, v.encode(), hashlib.sha256).hexdigest(), return_dtype=pl.String\n    )\n'),
        ed('pipeline/extract/customers.py', '        pl.DataFrame(page, schema=CUSTOMER_SCHEMA)', '        pl.DataFrame(page, schema=CUSTOMER_SCHEMA).with_columns(pseudonymize("email").alias("email_hash"), pseudonymize("phone").alias("phone_hash")).drop("email", "phone")'),
        sh('poetry run pytest tests/transform/test_pii.py -q', '......                                                                   [100%]\n6 passed in 0.22s'),
      ],
      'Emails and phone numbers are replaced at extract by HMAC-SHA256 hashes (email_hash, phone_hash, keyed with PIPELINE_PII_KEY); raw values never reach the lake or the warehouse.',
    )],
    facts: ['customer emails', 'HMAC-SHA256'],
    q: [
      { ask: 'how do we keep people\'s contact details out of the analytics tables while still joining on them?', kw: 'contact details analytics joining', style: 'para' },
      { ask: 'email_hash HMAC pseudonymize customers extract', kw: 'email hash HMAC PII', style: 'lit' },
    ],
  },
  {
    id: 'staging-rerun-idempotent',
    day: 40,
    turns: [turn(
      'I re-ran 15 sept in airflow to pick up a fix and now staging has that day twice',
      [
        sh("psql $WAREHOUSE_DSN -c \"select _load_day, count(*) from staging.stg_orders_raw where _load_day between '2026-09-14' and '2026-09-16' group by 1 order by 1\"", ' _load_day  | count\n------------+-------\n 2026-09-14 |  2093\n 2026-09-15 |  4322\n 2026-09-16 |  2120\n(3 rows)'),
        rd('pipeline/load/warehouse.py', FILES[1].content),
        say('The load task only appends with COPY, so every re-run adds the day again. A task must give the same result however often it runs: delete that load day\'s rows and COPY the file in one transaction, so a reader sees either the old day or the new one, never both or neither.'),
        ed('pipeline/load/warehouse.py', '    with conn.cursor() as cur, cur.copy(', '    with conn.transaction(), conn.cursor() as cur:\n        cur.execute(sql.SQL("delete from {} where _load_day = %s").format(sql.Identifier(*table.split("."))), [day])\n        with cur.copy('),
        sh('airflow tasks clear daily_orders -t load -s 2026-09-15 -e 2026-09-15 --yes && sleep 60 && psql $WAREHOUSE_DSN -tAc "select count(*) from staging.stg_orders_raw where _load_day = \'2026-09-15\'"', 'Clearing 1 task instances\n2161'),
      ],
      'The load deletes the day\'s rows and copies the file in one transaction, so re-running a day is idempotent; 15 September has 2161 rows again.',
    )],
    facts: ['staging has that day twice', 'one transaction'],
    q: [
      { ask: 'rerunning a day doubled its rows in staging — what was changed?', kw: 'rerun doubled rows staging load', style: 'lit' },
      { ask: 'is it safe to run an old date again, and what makes it so?', kw: 'safe to run old date again', style: 'para' },
    ],
  },
  {
    id: 'dag-import-variable',
    day: 42,
    turns: [turn(
      'the scheduler takes minutes to notice DAG changes and the UI shows "Broken DAG: DagBag import timeout" for daily_marts now and then',
      [
        sh('airflow dags report -o plain | sort -k2 -nr | head -4', 'file                     duration        dag_num task_num dags\n/daily_marts.py          0:00:28.410512  1       14       daily_marts\n/daily_orders.py         0:00:00.231020  1       4        daily_orders\n/events_hourly.py        0:00:00.198331  1       3        events_hourly'),
        gr('Variable.get', 'dags/daily_marts.py:9:MARTS = Variable.get("marts_to_build", deserialize_json=True)\ndags/daily_marts.py:10:SLACK = Variable.get("slack_channel")'),
        say('daily_marts.py calls Variable.get at module level, so every parse (every 30 s per file, on every scheduler and worker) opens a metadata database connection, and under load that takes long enough to hit dagbag_import_timeout (30 s). Top-level code in DAG files must stay cheap: the list of marts becomes a constant in the repo, the Slack channel a template read at run time.'),
        ed('dags/daily_marts.py', 'MARTS = Variable.get("marts_to_build", deserialize_json=True)\nSLACK = Variable.get("slack_channel")', 'MARTS = ["fct_orders", "fct_daily_orders", "fct_customer_ltv", "dim_customers"]\nSLACK = "{{ var.value.slack_channel }}"'),
        sh('airflow dags report -o plain | grep daily_marts', '/daily_marts.py          0:00:00.244187  1       14       daily_marts'),
      ],
      'daily_marts.py no longer calls Variable.get at import: parse time went from 28 s to 0.24 s and the DagBag import timeouts stopped.',
    )],
    facts: ['DagBag import timeout', 'Variable.get'],
    q: [
      { ask: 'Broken DAG: DagBag import timeout for daily_marts', kw: 'DagBag import timeout Variable.get', style: 'lit' },
      { ask: 'why was the scheduler so slow to pick up changes to our workflow files?', kw: 'scheduler slow picking up changes', style: 'para' },
    ],
  },
  {
    id: 'xdist-schema-per-worker',
    day: 44,
    turns: [turn(
      'with pytest -n 4 the integration tests fail randomly with "relation stg_orders_raw already exists" or missing rows',
      [
        sh('poetry run pytest tests/integration -n 4', lines(
          '============================= test session starts ==============================',
          'platform linux -- Python 3.11.9, pytest-8.3.3, pluggy-1.5.0',
          `rootdir: ${ROOT}`,
          'plugins: mock-3.14.0, cov-5.0.0, xdist-3.6.1, randomly-3.15.0',
          '4 workers [38 items]',
          '..F....F..........................E...                                   [100%]',
          '==================================== ERRORS ====================================',
          'E       psycopg.errors.DuplicateTable: relation "stg_orders_raw" already exists',
          '=========================== short test summary info ============================',
          'FAILED tests/integration/test_load_day.py::test_reload_replaces_day - assert 4322 == 2161',
          'FAILED tests/integration/test_marts.py::test_daily_counts - assert 0 == 3',
          'ERROR tests/integration/test_staging.py::test_create_tables - psycopg.errors.DuplicateTable',
          '==================== 2 failed, 35 passed, 1 error in 21.40s ====================',
        ), 1),
        say('All four xdist workers use the same test database and the same schema, so one worker\'s setup drops or fills tables another is asserting on. Each worker gets its own schema, named after its worker_id, set as the search_path of its connections.'),
        ed('tests/integration/conftest.py', '@pytest.fixture(scope="session")\ndef pg_conn():\n    conn = psycopg.connect(TEST_DSN)', '@pytest.fixture(scope="session")\ndef pg_conn(worker_id: str):\n    schema = f"test_{worker_id}"\n    conn = psycopg.connect(TEST_DSN, options=f"-c search_path={schema}")\n    conn.execute(f"drop schema if exists {schema} cascade; create schema {schema}")'),
        sh('poetry run pytest tests/integration -n 4 -q', '......................................                                   [100%]\n38 passed in 9.82s'),
      ],
      'Integration tests under pytest-xdist each use their own schema (test_<worker_id>); 38 pass in parallel in under 10 s.',
    )],
    facts: ['pytest -n 4', 'worker_id'],
    q: [
      { ask: 'the tests stepped on each other\'s tables when run in parallel — how was it fixed?', kw: 'parallel tests clobber tables', style: 'para' },
      { ask: 'pytest-xdist DuplicateTable schema per worker_id', kw: 'xdist worker_id search_path schema', style: 'lit' },
    ],
  },
  {
    id: 'slack-failure-alerts',
    day: 46,
    turns: [turn(
      'we need to hear about failed runs without watching the UI. slack please, but I do not want a ping for every retry',
      [
        wr('pipeline/alerts.py', 'from airflow.providers.slack.notifications.slack import SlackNotifier\n\non_failure = SlackNotifier(\n    slack_conn_id="slack",\n    channel="#data-alerts",\n    text=":red_circle: {{ dag.dag_id }}.{{ ti.task_id }} failed for {{ ds }} after {{ ti.try_number - 1 }} retries <{{ ti.log_url }}|log>",\n)\n'),
        say('on_failure_callback fires only when a task instance fails for good, i.e. after its retries are used up; retries go to on_retry_callback, which we leave unset. Default args for every DAG: 3 retries, 5 minutes apart with exponential backoff, then one Slack message to #data-alerts with a link to the log.'),
        ed('dags/common.py', 'DEFAULT_ARGS = {"owner": "data"}', 'DEFAULT_ARGS = {\n    "owner": "data",\n    "retries": 3,\n    "retry_delay": timedelta(minutes=5),\n    "retry_exponential_backoff": True,\n    "on_failure_callback": on_failure,\n}'),
        sh('airflow tasks test daily_orders load 2026-09-30 2>&1 | tail -2', "[2026-10-02, 10:41:12 UTC] {taskinstance.py:1225} INFO - Marking task as FAILED.\n[2026-10-02, 10:41:13 UTC] {slack.py:120} INFO - Sent Slack notification to #data-alerts"),
      ],
      'Failures are posted to #data-alerts by a SlackNotifier on_failure_callback, only after 3 retries (5 min, exponential backoff); retries themselves do not alert.',
    )],
    facts: ['slack', '#data-alerts'],
    q: [
      { ask: 'how are DAG failures reported to slack?', kw: 'slack on_failure_callback data-alerts', style: 'lit' },
    ],
  },
  {
    id: 'docker-image-slim',
    day: 48,
    turns: [turn(
      'our worker image is 3.1 GB and pulls take forever on new nodes. shrink it',
      [
        rd('Dockerfile', 'FROM apache/airflow:2.9.3-python3.11\nCOPY . /opt/airflow/\nRUN pip install poetry && poetry install\n'),
        sh('docker history --human --format "{{.Size}}\\t{{.CreatedBy}}" pipeline-etl:latest | sort -hr | head -3', '1.4GB\tRUN pip install poetry && poetry install\n812MB\t/bin/bash -o pipefail -e -u -x -c ...\n301MB\tCOPY . /opt/airflow/'),
        say('The image installs Poetry itself, the dev group (pytest, mypy, moto, dbt docs deps) and copies the whole repo including tests/data fixtures. A builder stage exports the main group only to requirements.txt, and the final stage pip-installs that with the Airflow constraints file and copies just pipeline/, dags/ and dbt/. The requirements file exists only inside the build.'),
        wr('Dockerfile', 'FROM python:3.11-slim AS export\nRUN pip install poetry==1.8.3 poetry-plugin-export\nCOPY pyproject.toml poetry.lock ./\nRUN poetry export --only main --without-hashes -o /requirements.txt\n\nFROM apache/airflow:2.9.3-python3.11\nCOPY --from=export /requirements.txt /tmp/\nRUN pip install --no-cache-dir -r /tmp/requirements.txt -c https://raw.githubusercontent.com/apache/airflow/constraints-2.9.3/constraints-3.11.txt\nCOPY pipeline/ /opt/airflow/pipeline/\nCOPY dags/ /opt/airflow/dags/\nCOPY dbt/ /opt/airflow/dbt/\n'),
        sh('docker build -t pipeline-etl:slim . >/dev/null && docker images pipeline-etl --format "{{.Tag}}\\t{{.Size}}"', 'slim\t1.22GB\nlatest\t3.1GB'),
      ],
      'The worker image is 1.22 GB (was 3.1 GB): poetry export of the main group in a builder stage, pip install with the Airflow constraints, only pipeline/, dags/ and dbt/ copied.',
    )],
    facts: ['3.1 GB', 'poetry export'],
    q: [
      { ask: 'how did we slim down the container the workers run?', kw: 'slim worker container', style: 'para' },
    ],
  },
  {
    id: 'float-revenue-cents',
    day: 50,
    turns: [turn(
      'finance reconciled september: our revenue is off by €3.17 over 64k orders. tiny but they want it exact',
      [
        sh("poetry run python -c \"import polars as pl; f=pl.read_parquet('s3://nw-lake/raw/orders/dt=2026-09-*/*.parquet'); print(f.schema['amount'], f['amount'].sum())\"", 'Float64 4182214.8300000857'),
        sh("psql $WAREHOUSE_DSN -c \"select pg_typeof(amount_eur), sum(amount_eur) from marts.fct_orders where ordered_at >= '2026-09-01' and ordered_at < '2026-10-01' group by 1\"", '    pg_typeof     |       sum\n------------------+------------------\n double precision | 4182211.66000017\n(1 row)'),
        say('Amounts arrive as JSON numbers, polars reads them as Float64, and the currency conversion multiplies floats and rounds each row; the warehouse column is double precision too. Binary floats cannot hold most cent values exactly, and the rounding of each conversion drifts. The schema now says Decimal(12, 2) for amounts, the rates are Decimal(18, 6), and the warehouse columns are numeric(12,2).'),
        ed('pipeline/extract/schema.py', '"amount": pl.Float64', '"amount": pl.Decimal(12, 2)'),
        wr('dbt/models/staging/stg_orders.sql', "select\n    order_id,\n    amount::numeric(12, 2) as amount,\n    amount_eur::numeric(12, 2) as amount_eur\nfrom {{ source('raw', 'orders') }}\n"),
        sh('poetry run dbt build --select stg_orders+ --full-refresh | tail -1 && psql $WAREHOUSE_DSN -tAc "select sum(amount_eur) from marts.fct_orders where ordered_at >= \'2026-09-01\' and ordered_at < \'2026-10-01\'"', '14:20:55  Done. PASS=14 WARN=0 ERROR=0 SKIP=0 TOTAL=14\n4182214.83'),
      ],
      'Money is Decimal(12,2) from extract to warehouse (numeric(12,2)), rates Decimal(18,6); September revenue matches finance to the cent (4,182,214.83).',
    )],
    facts: ['off by €3.17', 'Decimal(12, 2)'],
    q: [
      { ask: 'finance said our monthly totals were a few euros off — what was the cause?', kw: 'monthly totals few euros off', style: 'para' },
      { ask: 'amount Float64 double precision revenue rounding decimal', kw: 'Float64 Decimal numeric amount', style: 'lit' },
    ],
  },
  {
    id: 'backfill-pool',
    day: 52,
    turns: [turn(
      'marketing wants July reloaded with the new discount logic. how do I backfill a month without getting the shop API to throttle us again?',
      [
        sh('airflow pools set shop_api 2 "Shop API: at most 2 concurrent extracts"', 'Pool shop_api created'),
        ed('dags/daily_orders.py', '    @task\n    def extract(ds=None):', '    @task(pool="shop_api")\n    def extract(ds=None):'),
        say('The shop allows about 5 requests a second per key; one extract uses roughly two. So every task that calls the shop API runs in the shop_api pool of 2 slots, whoever started it (schedule or backfill). The backfill itself goes through the CLI with --reset-dagruns so existing July runs are replaced, not skipped. I put the command in the Makefile.'),
        ed('Makefile', 'lint:', 'backfill:  ## make backfill DAG=daily_orders FROM=2026-07-01 TO=2026-07-31\n\tpoetry run airflow dags backfill $(DAG) -s $(FROM) -e $(TO) --reset-dagruns --yes\n\nlint:'),
        sh('make backfill DAG=daily_orders FROM=2026-07-01 TO=2026-07-31', '[2026-10-16 09:02:11] INFO - Backfill: 31 dag runs to be created\n[2026-10-16 11:48:40] INFO - [backfill progress] | finished run 31 of 31 | tasks waiting: 0 | succeeded: 93 | running: 0 | failed: 0 | skipped: 0'),
      ],
      'July reloaded: `make backfill DAG=… FROM=… TO=…` wraps airflow dags backfill --reset-dagruns; shop API tasks run in the shop_api pool (2 slots), so backfills cannot flood it.',
    )],
    facts: ['backfill', 'shop_api pool'],
    q: [
      { ask: 'how do I backfill a month of daily_orders?', kw: 'airflow dags backfill reset-dagruns make', style: 'lit' },
      { ask: 'what is the procedure for reloading an older stretch of dates without hammering the storefront?', kw: 'reload older dates without hammering', style: 'para', also: ['airflow-catchup-flood'] },
    ],
  },
  {
    id: 'ruff-version-drift',
    day: 54,
    turns: [turn(
      'CI lint says "Would reformat: 3 files" but ruff format locally changes nothing',
      [
        sh('gh run view --log-failed | tail -5', 'lint\tWould reformat: pipeline/alerts.py\nlint\tWould reformat: pipeline/transform/pii.py\nlint\tWould reformat: dags/common.py\nlint\t3 files would be reformatted, 41 files already formatted\nlint\tError: Process completed with exit code 1.'),
        sh('poetry run ruff --version; grep -A2 ruff-pre-commit .pre-commit-config.yaml', 'ruff 0.6.9\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.5.0\n    hooks:'),
        say('Three ruff versions are in play: pre-commit runs its own pinned v0.5.0, my shell runs 0.6.9 from the lock, and CI installs the latest with pip. The 2025 formatter style changed how some expressions wrap. One version everywhere: CI and pre-commit both call the ruff from poetry.lock.'),
        ed('.pre-commit-config.yaml', '  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.5.0\n    hooks:\n      - id: ruff\n      - id: ruff-format', '  - repo: local\n    hooks:\n      - id: ruff\n        name: ruff\n        entry: poetry run ruff check --fix\n        language: system\n        types: [python]\n      - id: ruff-format\n        name: ruff format\n        entry: poetry run ruff format\n        language: system\n        types: [python]'),
        ed('.github/workflows/ci.yml', '      - run: pip install ruff && ruff format --check .', '      - run: make lint'),
      ],
      'ruff comes from poetry.lock everywhere: pre-commit uses local hooks calling poetry run ruff, CI runs make lint. Formatting no longer differs.',
    )],
    facts: ['Would reformat', 'poetry.lock'],
    q: [
      { ask: 'ruff format --check fails in CI but passes locally', kw: 'ruff format CI version pre-commit', style: 'lit' },
    ],
  },
  {
    id: 'staging-bloat-partitions',
    day: 56,
    turns: [turn(
      'warehouse disk at 92%, the provider emailed. data has barely grown',
      [
        sh("psql $WAREHOUSE_DSN -c \"select relname, pg_size_pretty(pg_total_relation_size(relid)), n_dead_tup from pg_stat_user_tables order by pg_total_relation_size(relid) desc limit 3\"", '     relname     | pg_size_pretty | n_dead_tup\n-----------------+----------------+------------\n stg_orders_raw  | 418 GB         |  381224190\n stg_order_lines | 61 GB          |      12004\n fct_orders      | 9 GB           |       2210'),
        say('stg_orders_raw holds 381M dead rows: every load deletes and re-inserts its day (the idempotent re-runs) and the hourly events reloads do the same, and autovacuum on a 400 GB table never finishes before the next round of deletes. Deleting rows is the wrong tool here. Partition the table by _load_day: a re-run truncates just its own partition, which frees space at once and leaves nothing to vacuum.'),
        wr('migrations/V014__partition_stg_orders_raw.sql', "create table staging.stg_orders_raw_p (like staging.stg_orders_raw) partition by range (_load_day);\ninsert into staging.stg_orders_raw_p select * from staging.stg_orders_raw;\ndrop table staging.stg_orders_raw;\nalter table staging.stg_orders_raw_p rename to stg_orders_raw;\n"),
        ed('pipeline/load/warehouse.py', '        cur.execute(sql.SQL("delete from {} where _load_day = %s")', '        ensure_partition(cur, table, day)\n        cur.execute(sql.SQL("truncate {}").format(partition_of(table, day)))\n        # was: delete from … where _load_day = %s'),
        sh("psql $WAREHOUSE_DSN -c \"select pg_size_pretty(pg_total_relation_size('staging.stg_orders_raw'))\"", ' pg_size_pretty\n----------------\n 37 GB\n(1 row)'),
      ],
      'stg_orders_raw is partitioned by _load_day; a re-run truncates its own partition instead of deleting rows. The table went from 418 GB (381M dead tuples) to 37 GB.',
    )],
    facts: ['disk at 92%', 'partitioned by _load_day'],
    q: [
      { ask: 'the database disk almost filled up though data hardly grew — what was taking the space?', kw: 'database disk filling up', style: 'para' },
      { ask: 'stg_orders_raw dead tuples bloat autovacuum partition _load_day', kw: 'dead tuples bloat partition truncate', style: 'lit' },
    ],
  },
  {
    id: 'pagination-offset-gaps',
    day: 58,
    turns: [turn(
      'support found orders that are in the shop but not in the warehouse. a handful per day, never the same hours',
      [
        sh("poetry run python scripts/compare_ids.py --day 2026-10-21", 'shop: 2214 orders, lake: 2207 orders, missing: 7\nmissing ids: 100912004 100912011 100912077 100913150 100913152 100913301 100914020'),
        rd('pipeline/clients/shop.py', 'def orders(self, updated_on: str):\n    offset = 0\n    while True:\n        page = self.get("/orders", params={"updated_on": updated_on, "offset": offset, "limit": 500})\n        if not page["orders"]:\n            return\n        yield page["orders"]\n        offset += 500'),
        say('Offset paging over a list that changes while we read it: the list is sorted by updated_at, and when an order on an earlier page is updated during the extract it moves to the end, everything after it shifts up by one, and the order at the page boundary is never returned. The API also offers keyset paging (after_id with sort by id), which does not shift.'),
        ed('pipeline/clients/shop.py', '    offset = 0\n    while True:\n        page = self.get("/orders", params={"updated_on": updated_on, "offset": offset, "limit": 500})', '    after = 0\n    while True:\n        page = self.get("/orders", params={"updated_on": updated_on, "sort": "id", "after_id": after, "limit": 500})'),
        ed('pipeline/clients/shop.py', '        offset += 500', '        after = page["orders"][-1]["id"]'),
        sh('poetry run python -m pipeline.extract.orders 2026-10-21 && poetry run python scripts/compare_ids.py --day 2026-10-21', 'shop: 2214 orders, lake: 2214 orders, missing: 0'),
      ],
      'The shop client pages by after_id (keyset) instead of offset, so updates during the extract no longer skip orders; 21 October is complete.',
    )],
    facts: ['not in the warehouse', 'after_id'],
    q: [
      { ask: 'why were a few purchases never making it into our tables?', kw: 'purchases never arrive tables', style: 'para' },
      { ask: 'orders missing from extract offset pagination after_id', kw: 'offset pagination missing orders keyset', style: 'lit' },
    ],
  },
  {
    id: 'dagster-decision',
    day: 60,
    turns: [turn(
      'the new data lead asked whether we should move to dagster. give me the honest comparison for us',
      [
        sh('ls dags | wc -l && grep -rl "@task" dags | wc -l', '11\n9'),
        say('For us: 11 DAGs, all daily or hourly batch, dbt doing the modelling. Dagster\'s asset model and dbt integration are nicer and local testing is easier, but a move means rewriting every DAG, the sensors and the Slack alerts, retraining on-call, and running two orchestrators during the cut-over — about a quarter of the team\'s time. None of our current pain (API limits, data bugs) is the orchestrator\'s fault. Recommendation: stay on Airflow through next year and upgrade to Airflow 3 when it is stable; look again if we need asset-level lineage across teams.'),
        wr('docs/adr/0003-orchestrator.md', '# 3. Stay on Airflow\n\nStatus: accepted (2026-10-27)\n\nWe keep Airflow 2.9 and plan the upgrade to Airflow 3. Dagster was considered; the migration cost is about a quarter of the team for no fix of a current problem. Revisit if cross-team asset lineage becomes a requirement.\n'),
      ],
      'Decision recorded in docs/adr/0003-orchestrator.md: stay on Airflow (upgrade to 3 later), no Dagster migration; revisit for cross-team asset lineage.',
    )],
    facts: ['dagster', 'Stay on Airflow'],
    q: [
      { ask: 'did we decide to switch to a different scheduler product?', kw: 'switch scheduler product decision', style: 'para' },
    ],
  },
  {
    id: 'ci-aws-oidc',
    day: 61,
    turns: [turn(
      'security wants the long-lived AWS keys out of the GitHub secrets. CI uses them for the dbt artifacts bucket and the integration tests',
      [
        rd('.github/workflows/ci.yml', '    env:\n      AWS_ACCESS_KEY_ID: ${{ secrets.AWS_ACCESS_KEY_ID }}\n      AWS_SECRET_ACCESS_KEY: ${{ secrets.AWS_SECRET_ACCESS_KEY }}'),
        say('GitHub\'s OIDC token lets the job assume an IAM role directly: the role trusts token.actions.githubusercontent.com for repo:northwind-labs/pipeline-etl only, and the credentials last an hour. No stored secret to leak.'),
        sh('aws iam create-role --role-name gha-pipeline-etl --assume-role-policy-document file://infra/gha-trust.json --query Role.Arn --output text', 'arn:aws:iam::481516234200:role/gha-pipeline-etl'),
        ed('.github/workflows/ci.yml', '    env:\n      AWS_ACCESS_KEY_ID: ${{ secrets.AWS_ACCESS_KEY_ID }}\n      AWS_SECRET_ACCESS_KEY: ${{ secrets.AWS_SECRET_ACCESS_KEY }}', '    permissions:\n      id-token: write\n      contents: read\n    steps:\n      - uses: aws-actions/configure-aws-credentials@v4\n        with:\n          role-to-assume: arn:aws:iam::481516234200:role/gha-pipeline-etl\n          aws-region: eu-central-1'),
        sh('gh secret delete AWS_ACCESS_KEY_ID && gh secret delete AWS_SECRET_ACCESS_KEY && gh run watch', '✓ Deleted secret AWS_ACCESS_KEY_ID\n✓ Deleted secret AWS_SECRET_ACCESS_KEY\n✓ test in 3m11s'),
      ],
      'CI assumes the gha-pipeline-etl IAM role through GitHub OIDC (configure-aws-credentials); the long-lived AWS keys are deleted.',
    )],
    facts: ['long-lived AWS keys', 'OIDC'],
    q: [
      { ask: 'how does CI authenticate to AWS?', kw: 'CI AWS OIDC role-to-assume', style: 'lit' },
      { ask: 'how do the automated checks get cloud access without any stored keys?', kw: 'checks cloud access without keys', style: 'para' },
    ],
  },
  {
    id: 'pandas-futurewarning-werror',
    day: 62,
    turns: [turn(
      'after bumping pandas, 6 tests fail, all with a FutureWarning. the code still works',
      [
        sh('poetry run pytest tests/transform -q', lines(
          '..FF.F..FF.F....                                                         [100%]',
          '=================================== FAILURES ===================================',
          '____________________________ test_legacy_fill_rates ____________________________',
          'pipeline/transform/legacy_rates.py:31: in fill_missing_rates',
          '    rates = rates.fillna(method="ffill")',
          "E   FutureWarning: DataFrame.fillna with 'method' is deprecated and will raise in a future version. Use obj.ffill() or obj.bfill() instead.",
          '=========================== short test summary info ============================',
          'FAILED tests/transform/test_legacy_rates.py::test_legacy_fill_rates - FutureWarning: DataFrame.fillna with \'method\' is deprecated',
          '6 failed, 10 passed in 1.12s',
        ), 1),
        rd('pyproject.toml', '[tool.pytest.ini_options]\nfilterwarnings = ["error"]'),
        say('Our pytest config turns every warning into an error on purpose, so deprecations fail here before they fail in production. Silencing it would defeat that; the legacy rates module just needs the replacement calls: ffill() instead of fillna(method=...), and an explicit infer_objects() where pandas warns about silent downcasting.'),
        ed('pipeline/transform/legacy_rates.py', '    rates = rates.fillna(method="ffill")', '    rates = rates.ffill()'),
        ed('pipeline/transform/legacy_rates.py', '    out = merged.fillna(0)', '    out = merged.fillna(0).infer_objects(copy=False)'),
        sh('poetry run pytest tests/transform -q', '................                                                         [100%]\n16 passed in 0.98s'),
      ],
      'legacy_rates.py uses ffill() and infer_objects() instead of the deprecated calls; warnings stay errors in pytest (filterwarnings = error).',
    )],
    facts: ['FutureWarning', 'ffill()'],
    q: [
      { ask: 'an upgrade made the test run treat a deprecation notice as a failure — what did we do about it?', kw: 'deprecation notice treated as failure', style: 'para' },
      { ask: 'FutureWarning fillna method deprecated filterwarnings error', kw: 'FutureWarning fillna ffill filterwarnings', style: 'lit' },
    ],
  },
  {
    id: 'makefile-help',
    day: 63,
    turns: [turn(
      'the README has five different ways to run things and half are stale. keep every routine command in the Makefile and let the README just point at make help',
      [
        rd('README.md', '## Running\n\n    poetry run pytest\n    dbt build --profiles-dir dbt\n    docker compose up airflow-init && docker compose up\n    python -m pipeline.extract.orders 2026-01-01'),
        say('Makefile as the single list of commands, self-documenting: each target has a ## comment and make help prints them. The README keeps one line.'),
        ed('Makefile', '.PHONY: dev test lint', '.PHONY: help dev test lint dbt up backfill\n\nhelp:  ## list the targets\n\t@grep -E \'^[a-z-]+:.*##\' $(MAKEFILE_LIST) | awk -F\':.*## \' \'{printf "  %-10s %s\\n", $$1, $$2}\'\n\ndbt:  ## dbt build against your dev target\n\tpoetry run dbt build --project-dir dbt --profiles-dir dbt\n\nup:  ## local Airflow (webserver on :8080)\n\tdocker compose up -d'),
        ed('README.md', '## Running\n\n    poetry run pytest\n    dbt build --profiles-dir dbt\n    docker compose up airflow-init && docker compose up\n    python -m pipeline.extract.orders 2026-01-01', '## Running\n\nEverything routine is a make target: run `make help`.'),
        sh('make help', '  help       list the targets\n  dev        install the locked environment and the hooks\n  test       pytest\n  lint       ruff check and format check\n  dbt        dbt build against your dev target\n  up         local Airflow (webserver on :8080)\n  backfill   make backfill DAG=daily_orders FROM=2026-07-01 TO=2026-07-31'),
      ],
      'Routine commands live in the Makefile only (help, dev, test, lint, dbt, up, backfill); README says run make help.',
    )],
    facts: ['make help', 'Makefile'],
    q: [
      { ask: 'which make targets are there and where is that listed?', kw: 'make help targets Makefile', style: 'lit' },
    ],
  },
  {
    id: 'currency-rates-source',
    day: 35,
    turns: [turn(
      'orders now come in USD and GBP too. where do we get conversion rates for the marts?',
      [
        gr('rates', 'pipeline/transform/currency.py:6:def to_eur(frame: pl.DataFrame, rates: dict[str, Decimal]) -> pl.DataFrame:'),
        say('The ledger team already stores the ECB daily reference rates; rather than fetching them a second time, we read their published table through a foreign data wrapper view. For weekend and holiday orders we use the last published rate before the order day, which is what finance books with.'),
        wr('dbt/models/staging/stg_fx_rates.sql', "select rate_date, currency, rate\nfrom {{ source('ledger', 'fx_rates') }}\n"),
        ed('pipeline/transform/currency.py', 'def to_eur(frame: pl.DataFrame, rates: dict[str, Decimal]) -> pl.DataFrame:', 'def to_eur(frame: pl.DataFrame, rates: dict[str, Decimal]) -> pl.DataFrame:\n    """rates: ECB reference rates of the last publication on or before the order day."""'),
        sh('poetry run dbt build --select stg_fx_rates', '15:11:05  1 of 2 OK created sql view model staging.stg_fx_rates ........... [CREATE VIEW in 0.12s]\n15:11:05  Done. PASS=2 WARN=0 ERROR=0 SKIP=0 TOTAL=2'),
      ],
      'Conversion uses the ECB rates the ledger service already stores (source ledger.fx_rates via stg_fx_rates), last publication on or before the order day.',
    )],
    facts: ['USD and GBP', 'stg_fx_rates'],
    q: [
      { ask: 'which exchange rates do the marts convert with?', kw: 'exchange rates ECB stg_fx_rates', style: 'lit' },
      { ask: 'for purchases made on a weekend, which day\'s conversion factor applies?', kw: 'weekend conversion factor day', style: 'para' },
    ],
  },
];

export const PIPELINE_ETL: ProjectHistory = {
  key: 'pipeline-etl',
  dir: 'pipeline-etl',
  remote: 'git@github.com:northwind-labs/pipeline-etl.git',
  kind: 'Python data pipeline',
  firstDay: '2026-08-05',
  days: 65,
  episodes: EPISODES,
  noiseCount: 36,
  noise: noiseTemplates(VOCAB),
  warmups: warmupTemplates(VOCAB),
  explore: exploreSteps(VOCAB),
};
