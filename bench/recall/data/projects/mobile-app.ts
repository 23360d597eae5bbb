/**
 * mobile-app: a React Native field-service app for technicians (Expo SDK 51, TypeScript, Jest,
 * Metro, EAS Build and Submit, react-query, Zustand, expo-sqlite), shipped to both app stores.
 */
import type { Rng } from '../../rng.js';
import { ed, gr, lines, rd, say, sh, turn, wr, type Episode, type ProjectHistory } from '../dsl.js';
import { diffStatOf, exploreSteps, noiseTemplates, warmupTemplates, type SourceFile, type Vocab } from '../noise.js';

const ROOT = '/home/dev/projects/crewlog-mobile';

const FILES: SourceFile[] = [
  {
    path: 'src/screens/JobListScreen.tsx',
    content: lines(
      "import { FlashList } from '@shopify/flash-list';",
      "import { useJobs } from '../hooks/useJobs';",
      "import { JobCard } from '../components/JobCard';",
      '',
      'export function JobListScreen({ navigation }: Props) {',
      '  const { data, refetch, isRefetching } = useJobs();',
      '  return (',
      '    <FlashList data={data} estimatedItemSize={96} onRefresh={refetch} refreshing={isRefetching}',
      "      renderItem={({ item }) => <JobCard job={item} onPress={() => navigation.navigate('Job', { id: item.id })} />} />",
      '  );',
      '}',
    ),
    about: 'JobListScreen.tsx is the home screen: the technician\'s jobs for today and the coming days in a FlashList, pull to refresh, and a tap opens the job detail screen. The data comes from the useJobs react-query hook.',
  },
  {
    path: 'src/sync/queue.ts',
    content: lines(
      "import * as SQLite from 'expo-sqlite';",
      '',
      "const db = SQLite.openDatabaseSync('crewlog.db');",
      '',
      'export function enqueue(op: PendingOp): void {',
      "  db.runSync('insert into pending_ops (kind, payload, created_at) values (?, ?, ?)', op.kind, JSON.stringify(op.payload), Date.now());",
      '}',
      '',
      'export async function flush(send: (op: PendingOp) => Promise<void>): Promise<number> {',
      "  const ops = db.getAllSync<PendingOp>('select * from pending_ops order by id');",
      '  for (const op of ops) {',
      '    await send(op);',
      "    db.runSync('delete from pending_ops where id = ?', op.id);",
      '  }',
      '  return ops.length;',
      '}',
    ),
    about: 'queue.ts is the offline outbox: every change a technician makes is written to the pending_ops table in the on-device SQLite database, and flush() sends them to the API in order when the phone is back online, deleting each one once the server accepted it.',
  },
  {
    path: 'src/api/client.ts',
    content: lines(
      "import { getTokens, refreshTokens } from '../auth/tokens';",
      '',
      'export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {',
      '  const res = await fetch(`${API_URL}${path}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${(await getTokens()).access}` } });',
      '  if (res.status === 401) {',
      '    await refreshTokens();',
      '    return api(path, init);',
      '  }',
      '  if (!res.ok) throw new ApiError(res.status, await res.text());',
      '  return res.json() as Promise<T>;',
      '}',
    ),
    about: 'client.ts wraps fetch for the Crewlog API: it adds the access token, refreshes the tokens once on a 401 and retries, and turns any other error status into an ApiError.',
  },
  {
    path: 'app.config.ts',
    content: lines(
      "import type { ExpoConfig } from 'expo/config';",
      '',
      'const config: ExpoConfig = {',
      "  name: 'Crewlog',",
      "  slug: 'crewlog',",
      "  version: '1.6.0',",
      "  ios: { bundleIdentifier: 'com.northwind.crewlog', supportsTablet: true },",
      "  android: { package: 'com.northwind.crewlog' },",
      "  plugins: ['expo-camera', 'expo-location', 'expo-notifications', 'expo-sqlite'],",
      '};',
      '',
      'export default config;',
    ),
    about: 'app.config.ts is the Expo app configuration: name, version, the iOS bundle id and Android package, and the config plugins of the native modules. The ios/ and android/ folders are generated from it by prebuild.',
  },
  {
    path: 'src/hooks/useJobs.ts',
    content: lines(
      "import { useQuery } from '@tanstack/react-query';",
      "import { api } from '../api/client';",
      '',
      'export function useJobs() {',
      "  return useQuery({ queryKey: ['jobs'], queryFn: () => api<Job[]>('/me/jobs?days=7'), staleTime: 60_000 });",
      '}',
    ),
    about: 'useJobs.ts is the react-query hook for the technician\'s jobs of the next seven days; results count as fresh for a minute, so switching screens does not refetch every time.',
  },
  {
    path: 'src/navigation/RootNavigator.tsx',
    content: lines(
      "import { createNativeStackNavigator } from '@react-navigation/native-stack';",
      '',
      'const Stack = createNativeStackNavigator<RootStackParamList>();',
      '',
      'export function RootNavigator() {',
      '  const signedIn = useSession((s) => s.signedIn);',
      '  return (',
      '    <Stack.Navigator>',
      '      {signedIn ? (<><Stack.Screen name="Jobs" component={JobListScreen} /><Stack.Screen name="Job" component={JobScreen} /><Stack.Screen name="Signature" component={SignatureScreen} /></>)',
      '        : <Stack.Screen name="SignIn" component={SignInScreen} options={{ headerShown: false }} />}',
      '    </Stack.Navigator>',
      '  );',
      '}',
    ),
    about: 'RootNavigator.tsx sets up the native stack: signed-in technicians get the jobs list, the job screen and the signature screen; everyone else only the sign-in screen. The session flag comes from the Zustand session store.',
  },
];

const TEST_FILES = [
  'src/sync/queue.test.ts', 'src/sync/conflicts.test.ts', 'src/api/client.test.ts', 'src/auth/tokens.test.ts',
  'src/hooks/useJobs.test.tsx', 'src/components/JobCard.test.tsx', 'src/components/PhotoGrid.test.tsx', 'src/screens/JobListScreen.test.tsx',
  'src/screens/SignatureScreen.test.tsx', 'src/screens/SignInScreen.test.tsx', 'src/lib/dates.test.ts', 'src/lib/format.test.ts',
  'src/db/migrations.test.ts', 'src/theme/tokens.test.ts',
];

function jestPass(rng: Rng, n: number): string {
  const snaps = rng.int(10, 16);
  return lines(
    '',
    '> crewlog@1.6.0 test',
    '> jest',
    '',
    ...rng.shuffle(TEST_FILES).map((f) => ` PASS  ${f}${rng.chance(0.2) ? ` (${rng.int(5, 9)}.${rng.int(100, 999)} s)` : ''}`),
    '',
    `Test Suites: ${TEST_FILES.length} passed, ${TEST_FILES.length} total`,
    `Tests:       ${n} passed, ${n} total`,
    `Snapshots:   ${snaps} passed, ${snaps} total`,
    `Time:        ${rng.int(8, 24)}.${rng.int(100, 999)} s`,
    'Ran all test suites.',
  );
}

const VOCAB: Vocab = {
  testCmd: 'npm test',
  testPass: jestPass,
  testFail: (rng, n, name, file) => lines(
    '',
    '> crewlog@1.6.0 test',
    '> jest',
    '',
    ` FAIL  ${file}`,
    `  ● ${name}`,
    '',
    '    expect(received).toBeUndefined()',
    '',
    '    Received: null',
    '',
    `      ${rng.int(10, 40)} |     expect(result).toBeUndefined();`,
    '         |                    ^',
    '',
    `Test Suites: 1 failed, ${TEST_FILES.length - 1} passed, ${TEST_FILES.length} total`,
    `Tests:       1 failed, ${n - 1} passed, ${n} total`,
    `Time:        ${rng.int(8, 24)}.${rng.int(100, 999)} s`,
  ),
  testCount: [120, 190],
  lintCmd: 'npm run lint',
  lintFail: (file, rng) => {
    const count = rng.int(1, 4);
    const out = ['', '> crewlog@1.6.0 lint', '> eslint . --max-warnings 0', '', `${ROOT}/${file}`];
    for (let i = 0; i < count; i++) out.push(`  ${rng.int(2, 60)}:${rng.int(1, 30)}  ${rng.pick(["warning  React Hook useEffect has a missing dependency: 'jobId'  react-hooks/exhaustive-deps", "error  'Text' is defined but never used  @typescript-eslint/no-unused-vars", 'warning  Inline style: { marginTop: 8 }  react-native/no-inline-styles', 'error  Unexpected console statement  no-console'])}`);
    out.push('', `✖ ${count} problem${count > 1 ? 's' : ''}`);
    return { output: out.join('\n'), count };
  },
  lintOk: '\n> crewlog@1.6.0 lint\n> eslint . --max-warnings 0\n',
  installCmd: (dep) => `npx expo install ${dep}`,
  installOut: (rng) => `› Installing 1 SDK 51.0.0 compatible native module using npm\n> npm install\n\nadded ${rng.int(0, 3)} packages, changed ${rng.int(1, 5)} packages, and audited ${rng.int(1250, 1350)} packages in ${rng.int(3, 19)}s\n\n${rng.int(120, 180)} packages are looking for funding\n  run \`npm fund\` for details\n\nfound 0 vulnerabilities`,
  manifest: 'package.json',
  manifestLine: (dep, v) => `    "${dep}": "~${v}",`,
  deps: [
    { name: 'expo-camera', from: '15.0.14', to: '15.0.16' },
    { name: 'expo-notifications', from: '0.28.9', to: '0.28.19' },
    { name: '@tanstack/react-query', from: '5.51.1', to: '5.59.16' },
    { name: '@shopify/flash-list', from: '1.6.4', to: '1.7.1' },
    { name: 'react-native-reanimated', from: '3.10.1', to: '3.14.0' },
    { name: '@sentry/react-native', from: '5.24.3', to: '5.33.1' },
  ],
  files: FILES,
  testFor: (f) => ({
    path: f.path.replace(/\.tsx?$/, (m) => `.test${m}`),
    body: (n) => lines(`describe('${f.path.split('/').pop()}', () => {`, ...Array.from({ length: n }, (_, i) => `  it('case ${i + 1}', () => { expect(true).toBe(true); });`), '});'),
  }),
  expectationFix: ['toBeUndefined()', 'toBeNull()'],
  renames: [
    { from: 'enqueue', to: 'enqueueOp', files: ['src/sync/queue.ts', 'src/screens/JobScreen.tsx', 'src/screens/SignatureScreen.tsx'] },
    { from: 'JobCard', to: 'JobRow', files: ['src/components/JobCard.tsx', 'src/screens/JobListScreen.tsx', 'src/components/JobCard.test.tsx'] },
    { from: 'useSession', to: 'useSessionStore', files: ['src/state/session.ts', 'src/navigation/RootNavigator.tsx', 'src/screens/SignInScreen.tsx'] },
  ],
  diffStat: diffStatOf(FILES),
  asides: [
    { q: 'what is the difference between useMemo and useCallback, briefly?', a: 'useMemo caches the result of a function between renders; useCallback caches the function itself. useCallback(fn, deps) is the same as useMemo(() => fn, deps).', fact: 'useMemo' },
    { q: 'how do I list the simulators installed on this mac?', a: 'Run `xcrun simctl list devices available`; `xcrun simctl boot "iPhone 15"` starts one.', fact: 'simulators' },
    { q: 'how do I copy a file from my android phone to the laptop over adb?', a: '`adb pull /sdcard/Download/file.png .` copies it to the current directory; `adb devices` shows whether the phone is connected.', fact: 'adb pull' },
  ],
};

const EPISODES: Episode[] = [
  {
    id: 'expo-install-cng',
    day: 0,
    turns: [turn(
      'add barcode scanning for the part labels. heads up: native packages always go in with npx expo install, not plain npm install, and never hand-edit ios/ or android/ — they are generated',
      [
        rd('.gitignore', 'node_modules/\n.expo/\n/ios\n/android\n*.jks'),
        sh('npx expo install expo-camera', '› Installing 1 SDK 51.0.0 compatible native module using npm\n> npm install expo-camera@~15.0.14\n\nadded 1 package, and audited 1288 packages in 6s\n\nfound 0 vulnerabilities'),
        say('Noted: expo install picks the version that matches our SDK, and native changes go through config plugins in app.config.ts since ios/ and android/ are regenerated by prebuild (they are gitignored). The camera permission text is a plugin option, not an Info.plist edit.'),
        ed('app.config.ts', "  plugins: ['expo-camera',", "  plugins: [['expo-camera', { cameraPermission: 'Crewlog uses the camera to scan part labels and photograph finished work.' }],"),
        wr('src/components/PartScanner.tsx', "import { CameraView, useCameraPermissions } from 'expo-camera';\n\nexport function PartScanner({ onCode }: { onCode: (code: string) => void }) {\n  const [permission, request] = useCameraPermissions();\n  if (!permission?.granted) return <PermissionPrompt onAllow={request} />;\n  return <CameraView style={{ flex: 1 }} barcodeScannerSettings={{ barcodeTypes: ['code128', 'qr'] }} onBarcodeScanned={({ data }) => onCode(data)} />;\n}"),
        sh('npx expo prebuild --clean --no-install && npx expo run:android', '✔ Cleared android, ios code\n✔ Created native directories\n✔ Finished prebuild\n› Building app...\nBUILD SUCCESSFUL in 2m 14s\n› Installing on Pixel_7_API_34\n› Opening com.northwind.crewlog'),
      ],
      'PartScanner scans code128 and QR labels with expo-camera (installed with npx expo install); the permission text is set through the config plugin, ios/ and android/ stay generated.',
    )],
    facts: ['barcode scanning', 'PartScanner'],
    q: [
      { ask: 'how should native packages be added to the app?', kw: 'npx expo install native packages', style: 'lit' },
      { ask: 'are we allowed to change the generated platform folders by hand?', kw: 'edit generated platform folders', style: 'para' },
    ],
  },
  {
    id: 'gradle-jdk-21',
    day: 2,
    turns: [turn(
      'local android build fails right at the start, something about class file major version 65',
      [
        sh('npx expo run:android', lines(
          '› Building app...',
          'FAILURE: Build failed with an exception.',
          '',
          '* What went wrong:',
          'Could not open settings generic class cache for settings file \'/home/dev/projects/crewlog-mobile/android/settings.gradle\' (/home/dev/.gradle/caches/8.6/scripts/4x9c1fn0ap6t2f7b).',
          '> BUG! exception in phase \'semantic analysis\' in source unit \'_BuildScript_\' Unsupported class file major version 65',
          '',
          'BUILD FAILED in 3s',
        ), 1),
        sh('java -version 2>&1 | head -1; /usr/libexec/java_home -V 2>&1 | tail -3', 'openjdk version "21.0.4" 2024-07-16\n    21.0.4 (arm64) "Homebrew" - "OpenJDK 21.0.4"\n    17.0.12 (arm64) "Azul Systems, Inc." - "Zulu 17.0.12"'),
        say('Class file major version 65 is Java 21. Homebrew updated the default JDK to 21, and the Gradle 8.6 that React Native 0.74 ships cannot run on it; React Native wants JDK 17. Pointing JAVA_HOME at the Zulu 17 that is already installed fixes it, and the EAS profile pins the same for cloud builds.'),
        ed('.envrc', 'export ANDROID_HOME=$HOME/Library/Android/sdk', 'export ANDROID_HOME=$HOME/Library/Android/sdk\nexport JAVA_HOME=$(/usr/libexec/java_home -v 17)  # RN 0.74 / Gradle 8.6 need JDK 17, not 21'),
        sh('direnv allow && npx expo run:android', '› Building app...\nBUILD SUCCESSFUL in 1m 52s\n› Installing on Pixel_7_API_34'),
      ],
      'Android builds need JDK 17: JAVA_HOME points at Zulu 17 in .envrc (Homebrew had switched the default to JDK 21, which Gradle 8.6 cannot run).',
    )],
    facts: ['major version 65', 'JDK 17'],
    q: [
      { ask: 'Unsupported class file major version 65 when building android', kw: 'major version 65 gradle JDK 17', style: 'lit' },
      { ask: 'the Android build fell over on my laptop because of the Java install — what fixed it?', kw: 'Android build broke Java install', style: 'para' },
    ],
  },
  {
    id: 'xcode-node-binary',
    day: 4,
    turns: [turn(
      'archive in xcode fails: Command PhaseScriptExecution failed with a nonzero exit code. simulator builds from the CLI work',
      [
        sh('xcodebuild -workspace ios/Crewlog.xcworkspace -scheme Crewlog -configuration Release archive 2>&1 | grep -B4 "PhaseScriptExecution failed" | head -6', lines(
          "+ /opt/homebrew/bin/node /home/dev/projects/crewlog-mobile/node_modules/react-native/scripts/bundle.js",
          "/home/dev/projects/crewlog-mobile/node_modules/react-native/scripts/react-native-xcode.sh: line 120: /opt/homebrew/bin/node: No such file or directory",
          "Command PhaseScriptExecution failed with a nonzero exit code",
          "** ARCHIVE FAILED **",
          "The following build commands failed:",
          "\tPhaseScriptExecution Bundle\\ React\\ Native\\ code\\ and\\ images",
        ), 65),
        rd('ios/.xcode.env.local', 'export NODE_BINARY=/opt/homebrew/bin/node'),
        say('The "Bundle React Native code and images" phase runs node from NODE_BINARY, and .xcode.env.local points at a Homebrew node that was uninstalled when you moved to nvm. The CLI build works because it inherits your shell PATH. Since ios/ is generated, the lasting fix is in .xcode.env (committed through a config plugin) using command -v node, which follows nvm.'),
        wr('plugins/withNodeBinary.js', "const { withDangerousMod } = require('expo/config-plugins');\nconst fs = require('fs');\nconst path = require('path');\n\nmodule.exports = (config) => withDangerousMod(config, ['ios', (c) => {\n  fs.writeFileSync(path.join(c.modRequest.platformProjectRoot, '.xcode.env'), 'export NODE_BINARY=$(command -v node)\\n');\n  return c;\n}]);"),
        ed('app.config.ts', "  plugins: [", "  plugins: ['./plugins/withNodeBinary',"),
        sh('rm ios/.xcode.env.local && npx expo prebuild -p ios --no-install && xcodebuild -workspace ios/Crewlog.xcworkspace -scheme Crewlog -configuration Release archive -quiet', '** ARCHIVE SUCCEEDED **'),
      ],
      'The bundle phase finds node through NODE_BINARY=$(command -v node) in .xcode.env, written by plugins/withNodeBinary.js; the stale .xcode.env.local pointing at Homebrew node is gone. Archive succeeds.',
    )],
    facts: ['PhaseScriptExecution failed', 'NODE_BINARY'],
    q: [
      { ask: 'Xcode archive: Command PhaseScriptExecution failed in Bundle React Native code and images', kw: 'PhaseScriptExecution NODE_BINARY xcode.env', style: 'lit' },
      { ask: 'the iOS release packaging could not find the JavaScript runtime — what did we set?', kw: 'iOS packaging cannot find runtime', style: 'para' },
    ],
  },
  {
    id: 'offline-outbox-design',
    day: 6,
    turns: [turn(
      'technicians work in basements with no signal. how should edits made offline reach the server? design it before we build it',
      [
        rd('src/sync/queue.ts', FILES[1].content),
        say('Design: every change is written first to a local outbox (pending_ops in expo-sqlite), the UI reads its own optimistic state, and the outbox is flushed in order when NetInfo reports a connection or the app comes to the foreground. Each op carries a client-generated id, so the server can ignore a duplicate when a flush is interrupted after the request went out. Conflicts: the server keeps the newest change per field by updatedAt, except job status, where "completed" always wins over earlier states.'),
        wr('docs/offline-sync.md', '# Offline sync\n\n- Outbox: pending_ops (expo-sqlite), flushed in id order on reconnect / foreground.\n- Every op has a client uuid; the API deduplicates on it.\n- Conflicts: last write wins per field by updatedAt; status "completed" always wins.\n'),
        ed('src/sync/queue.ts', "  db.runSync('insert into pending_ops (kind, payload, created_at) values (?, ?, ?)', op.kind, JSON.stringify(op.payload), Date.now());", "  db.runSync('insert into pending_ops (op_id, kind, payload, created_at) values (?, ?, ?, ?)', randomUUID(), op.kind, JSON.stringify(op.payload), Date.now());"),
      ],
      'Offline design written to docs/offline-sync.md: local outbox in expo-sqlite flushed in order on reconnect, client op ids for server-side dedup, last write wins per field except status completed.',
    )],
    facts: ['no signal', 'docs/offline-sync.md'],
    q: [
      { ask: 'how do changes made without a connection get to the backend?', kw: 'changes without connection backend', style: 'para' },
      { ask: 'offline outbox pending_ops conflict rule last write wins', kw: 'outbox pending_ops conflicts updatedAt', style: 'lit' },
    ],
  },
  {
    id: 'flaky-queue-timers',
    day: 8,
    turns: [turn(
      'src/sync/queue.test.ts is flaky on CI — "Exceeded timeout of 5000 ms" maybe every third run',
      [
        sh('npx jest src/sync/queue.test.ts', lines(
          ' FAIL  src/sync/queue.test.ts (6.211 s)',
          '  ● flush › retries a failed op with backoff',
          '',
          '    thrown: "Exceeded timeout of 5000 ms for a test.',
          '    Add a timeout value to this test to increase the timeout, if this is a long-running test. See https://jestjs.io/docs/api#testname-fn-timeout."',
          '',
          '      41 |   it(\'retries a failed op with backoff\', async () => {',
          '         |   ^',
          '',
          'Tests:       1 failed, 11 passed, 12 total',
        ), 1),
        rd('src/sync/backoff.ts', 'export const delayFor = (attempt: number) => Math.min(30_000, 1000 * 2 ** attempt) * (0.5 + Math.random());'),
        say('The test waits for real: three retries with exponential backoff and random jitter add up to anything between 3.5 and 10.5 s, so it passes or times out depending on Math.random. Fake timers make the waits instant, and injecting the random source makes the jitter deterministic in tests.'),
        ed('src/sync/backoff.ts', 'export const delayFor = (attempt: number) => Math.min(30_000, 1000 * 2 ** attempt) * (0.5 + Math.random());', 'export const delayFor = (attempt: number, random: () => number = Math.random) => Math.min(30_000, 1000 * 2 ** attempt) * (0.5 + random());'),
        ed('src/sync/queue.test.ts', "  it('retries a failed op with backoff', async () => {", "  beforeEach(() => jest.useFakeTimers());\n  afterEach(() => jest.useRealTimers());\n\n  it('retries a failed op with backoff', async () => {\n    const run = flush(send, { random: () => 0.5 });\n    await jest.runAllTimersAsync();"),
        sh('for i in $(seq 1 10); do npx jest src/sync/queue.test.ts --silent 2>&1 | grep Tests:; done | sort | uniq -c', '     10 Tests:       12 passed, 12 total'),
      ],
      'queue.test.ts uses fake timers and a fixed jitter source; it no longer waits seconds of real backoff and passed 10 of 10 runs.',
    )],
    facts: ['Exceeded timeout of 5000 ms', 'fake timers'],
    q: [
      { ask: 'why was queue.test.ts flaky with Exceeded timeout of 5000 ms?', kw: 'queue.test.ts flaky timeout backoff', style: 'lit' },
      { ask: 'which unit test broke now and then because it sat through actual delays?', kw: 'test broke sitting through delays', style: 'para' },
    ],
  },
  {
    id: 'refresh-token-race',
    day: 10,
    turns: [turn(
      'technicians get thrown back to the sign-in screen a few times a day. the logs show refresh_token_reused from the auth server',
      [
        sh('grep -c refresh_token_reused logs/auth-2026-08-20.jsonl; grep refresh_token_reused logs/auth-2026-08-20.jsonl | head -2', '37\n{"ts":"2026-08-20T07:31:02.114Z","event":"refresh_token_reused","user":"t-1042","family":"f9c2"}\n{"ts":"2026-08-20T07:31:02.120Z","event":"refresh_token_reused","user":"t-1042","family":"f9c2"}'),
        rd('src/api/client.ts', FILES[2].content),
        say('On app start several queries fire at once; when the access token has expired they all get 401 and each calls refreshTokens() with the same refresh token. The server rotates refresh tokens, so the second use of the old one looks like theft and it revokes the whole family — the user is signed out. Refreshing must be single-flight: the first 401 starts the refresh, the others await the same promise.'),
        ed('src/auth/tokens.ts', 'export async function refreshTokens(): Promise<Tokens> {', "let inFlight: Promise<Tokens> | null = null;\n\nexport function refreshTokens(): Promise<Tokens> {\n  inFlight ??= doRefresh().finally(() => { inFlight = null; });\n  return inFlight;\n}\n\nasync function doRefresh(): Promise<Tokens> {"),
        sh('npx jest src/auth src/api', ' PASS  src/auth/tokens.test.ts\n PASS  src/api/client.test.ts\n\nTest Suites: 2 passed, 2 total\nTests:       19 passed, 19 total'),
      ],
      'Token refresh is single-flight (one shared promise), so parallel 401s no longer reuse the old refresh token and trigger the revocation that signed users out.',
    )],
    facts: ['refresh_token_reused', 'single-flight'],
    q: [
      { ask: 'why were field staff randomly logged out during their shift?', kw: 'staff logged out randomly', style: 'para' },
      { ask: 'refresh_token_reused parallel 401 refreshTokens', kw: 'refresh token reuse single-flight', style: 'lit' },
    ],
  },
  {
    id: 'ci-node-modules-cache',
    day: 12,
    turns: [turn(
      'the build CI made this morning crashes at launch on every device: Reanimated mismatch between JavaScript part and native part',
      [
        sh('adb logcat -d | grep -m2 ReactNativeJS', "E ReactNativeJS: [Reanimated] Mismatch between JavaScript part and native part of Reanimated (3.14.0 vs 3.10.1).\nE ReactNativeJS: See https://docs.swmansion.com/react-native-reanimated/docs/guides/troubleshooting#mismatch-between-javascript-part-and-native-part-of-reanimated for more details."),
        rd('.github/workflows/build.yml', lines('      - run: npm ci', '      - uses: actions/cache@v4', '        with:', '          path: |', '            ~/.gradle/caches', '            android/.cxx', '            node_modules/react-native-reanimated/android/build', "          key: gradle-${{ hashFiles('package.json') }}")),
        say('The Gradle cache also holds Reanimated\'s compiled native build output, and it is keyed on package.json. Yesterday\'s dependabot PR changed only package-lock.json (reanimated 3.10.1 → 3.14.0 within the ~ range), so the key did not change: npm ci installed the 3.14.0 JavaScript, and Gradle reused the 3.10.1 native libraries restored from the cache. The key has to include the lockfile, and build output inside node_modules does not belong in a cache at all.'),
        ed('.github/workflows/build.yml', "            android/.cxx\n            node_modules/react-native-reanimated/android/build\n          key: gradle-${{ hashFiles('package.json') }}", "          key: gradle-${{ hashFiles('package-lock.json', 'app.config.ts') }}  # never build output from node_modules"),
        sh('gh workflow run build.yml --ref main && gh run watch', '✓ build-android in 14m22s\n✓ build completed with success'),
      ],
      'CI\'s Gradle cache is keyed on package-lock.json and app.config.ts and no longer holds native build output from node_modules; the rebuilt app launches.',
    )],
    facts: ['Mismatch between JavaScript part and native part', 'package-lock.json'],
    q: [
      { ask: 'Reanimated Mismatch between JavaScript part and native part after a CI build', kw: 'Reanimated mismatch CI gradle cache', style: 'lit' },
      { ask: 'why did the pipeline produce an app that crashed on startup, though nobody changed code?', kw: 'pipeline app crashed startup', style: 'para' },
    ],
  },
  {
    id: 'job-list-flashlist',
    day: 14,
    turns: [turn(
      'scrolling the jobs list is janky for the dispatchers who see 2000 jobs. fix it',
      [
        sh('npx react-native-performance-monitor --screen Jobs --seconds 10', 'JS FPS: avg 31, min 9\nUI FPS: avg 58\nblank areas while scrolling: 18 %\nrenders of JobCard: 4211'),
        rd('src/screens/JobListScreen.tsx', "<FlatList data={data} renderItem={({ item }) => <JobCard job={item} onPress={() => navigation.navigate('Job', { id: item.id })} />} />"),
        say('Two causes: FlatList mounts and unmounts a view per row as you scroll, and every JobCard re-renders on each refetch because renderItem creates a new onPress each time and JobCard is not memoized. FlashList recycles row views; with a stable callback and React.memo on JobCard, rows only render when their job changes.'),
        sh('npx expo install @shopify/flash-list', '› Installing 1 SDK 51.0.0 compatible native module using npm\n> npm install @shopify/flash-list@1.6.4'),
        ed('src/screens/JobListScreen.tsx', "<FlatList data={data} renderItem={({ item }) => <JobCard job={item} onPress={() => navigation.navigate('Job', { id: item.id })} />} />", "<FlashList data={data} estimatedItemSize={96} renderItem={renderItem} keyExtractor={(j) => j.id} />"),
        ed('src/components/JobCard.tsx', 'export function JobCard(', 'export const JobCard = memo(function JobCard('),
        sh('npx react-native-performance-monitor --screen Jobs --seconds 10', 'JS FPS: avg 59, min 52\nUI FPS: avg 60\nblank areas while scrolling: 0.4 %\nrenders of JobCard: 38'),
      ],
      'The jobs list uses FlashList (estimatedItemSize 96) with a memoized JobCard and a stable renderItem; JS FPS went from 31 to 59 with 2000 jobs.',
    )],
    facts: ['janky', 'FlashList'],
    q: [
      { ask: 'moving through the long list of work orders felt sluggish — how did we make it smooth?', kw: 'long list sluggish smooth', style: 'para' },
      { ask: 'FlatList janky JobListScreen FlashList estimatedItemSize', kw: 'FlashList estimatedItemSize JobCard memo', style: 'lit' },
    ],
  },
  {
    id: 'signature-back-guard',
    day: 16,
    turns: [turn(
      'a tech pressed the android back button halfway through the customer signing and the signature was gone. we need a guard',
      [
        rd('src/screens/SignatureScreen.tsx', "export function SignatureScreen({ route }: Props) {\n  const [strokes, setStrokes] = useState<Stroke[]>([]);\n  return <SignaturePad strokes={strokes} onChange={setStrokes} />;\n}"),
        say('react-navigation has usePreventRemove for exactly this: while there are unsaved strokes it intercepts the hardware back button, the swipe-back gesture and the header back button alike, and we ask before discarding. It replaces ad-hoc BackHandler listeners, which miss the iOS gesture.'),
        ed('src/screens/SignatureScreen.tsx', '  const [strokes, setStrokes] = useState<Stroke[]>([]);', "  const [strokes, setStrokes] = useState<Stroke[]>([]);\n  usePreventRemove(strokes.length > 0, ({ data }) => {\n    Alert.alert('Discard signature?', 'The customer will have to sign again.', [\n      { text: 'Keep signing', style: 'cancel' },\n      { text: 'Discard', style: 'destructive', onPress: () => navigation.dispatch(data.action) },\n    ]);\n  });"),
        sh('npx jest src/screens/SignatureScreen.test.tsx', ' PASS  src/screens/SignatureScreen.test.tsx\n  SignatureScreen\n    ✓ asks before leaving with strokes (41 ms)\n    ✓ leaves without asking when empty (12 ms)\n\nTests:       2 passed, 2 total'),
      ],
      'SignatureScreen guards unsaved strokes with usePreventRemove: back button, swipe and header back ask "Discard signature?" first.',
    )],
    facts: ['back button', 'usePreventRemove'],
    q: [
      { ask: 'people lost a customer\'s autograph by navigating away — what prevents that now?', kw: 'lost autograph navigating away', style: 'para' },
      { ask: 'usePreventRemove on SignatureScreen for the android back button', kw: 'usePreventRemove SignatureScreen back', style: 'lit' },
    ],
  },
  {
    id: 'sdk-51-pin',
    day: 18,
    turns: [turn(
      'expo SDK 52 is out, should we upgrade? fwiw new apps should start on 52 with the new architecture, but this one stays on 51 until react-native-maps works with it',
      [
        sh('npx expo-doctor', '✔ Check package.json for common issues\n✔ Check dependencies for packages that should not be installed directly\n✖ Check for issues with metro config\n  Your project is on Expo SDK 51.0.28. SDK 52 is available.\n13/14 checks passed. 1 checks failed.'),
        sh('npm view react-native-maps@latest peerDependencies --json', '{\n  "react": ">= 18.3.1",\n  "react-native": ">= 0.76.0",\n  "react-native-web": ">= 0.11"\n}'),
        say('Agreed. SDK 52 turns the new architecture on by default, and the react-native-maps release that works with RN 0.76 renders through Fabric, where our custom map markers crash (issue open upstream). So we stay on SDK 51 and pin expo ~51.0.28. I noted the reason in the README so nobody runs the upgrade by accident.'),
        ed('package.json', '    "expo": "^51.0.28",', '    "expo": "~51.0.28",'),
        ed('README.md', '## Stack', '## Stack\n\nExpo SDK 51 (pinned ~51.0.28). New apps start on SDK 52 with the new architecture; this one moves when react-native-maps markers work under Fabric.'),
      ],
      'Stays on Expo SDK 51 (expo ~51.0.28); README says new apps start on SDK 52 with the new architecture and this one follows once react-native-maps works under it.',
    )],
    facts: ['SDK 52', 'stays on Expo SDK 51'],
    q: [
      { ask: 'which Expo SDK is this app pinned to?', kw: 'Expo SDK 51 pinned', style: 'lit' },
      { ask: 'why haven\'t we moved the app to the newest framework release yet?', kw: 'not on newest framework release', style: 'para' },
    ],
  },
  {
    id: 'android13-notification-permission',
    day: 20,
    turns: [turn(
      'new job push notifications never show up on some android phones. pixel 7 and galaxy s23 at least',
      [
        sh('adb shell dumpsys notification | grep -A2 com.northwind.crewlog | head -3', '  AppSettings: com.northwind.crewlog (10231) importance=NONE userSet=false\n    channels: 0'),
        say('Both run Android 13+, where showing notifications needs the POST_NOTIFICATIONS runtime permission; without asking, the app has importance NONE and the system drops everything. We also never created a channel, so even granted notifications would land in "Miscellaneous" at default importance. Ask for permission after sign-in, and create a "jobs" channel at high importance before registering for the push token.'),
        ed('src/notifications/register.ts', 'export async function registerForPush() {', "export async function registerForPush() {\n  await Notifications.setNotificationChannelAsync('jobs', { name: 'New jobs', importance: Notifications.AndroidImportance.HIGH });\n  const { status } = await Notifications.requestPermissionsAsync();\n  if (status !== 'granted') return null;"),
        sh('npx expo run:android --variant release && adb shell dumpsys notification | grep -A2 com.northwind.crewlog | head -3', 'BUILD SUCCESSFUL in 3m 2s\n  AppSettings: com.northwind.crewlog (10231) importance=DEFAULT userSet=true\n    channels: 1 (jobs importance=HIGH)'),
      ],
      'Push: the app asks for POST_NOTIFICATIONS after sign-in and creates a high-importance "jobs" channel; new-job notifications show on Android 13+.',
    )],
    facts: ['push notifications never show up', 'POST_NOTIFICATIONS'],
    q: [
      { ask: 'push notifications not shown on Android 13 — POST_NOTIFICATIONS and the channel', kw: 'POST_NOTIFICATIONS Android 13 channel', style: 'lit' },
      { ask: 'some phones never displayed our alerts about new work, what was missing?', kw: 'phones never displayed alerts', style: 'para' },
    ],
  },
  {
    id: 'photo-upload-oom',
    day: 22,
    turns: [turn(
      'app crashes when a tech attaches more than ~10 photos to a job and hits save',
      [
        sh('adb logcat -d | grep -m3 -E "OutOfMemoryError|FATAL"', 'E AndroidRuntime: FATAL EXCEPTION: mqt_native_modules\nE AndroidRuntime: java.lang.OutOfMemoryError: Failed to allocate a 76284112 byte allocation with 25165824 free bytes and 48MB until OOM\nE AndroidRuntime: \tat java.lang.StringFactory.newStringFromBytes(StringFactory.java:79)'),
        rd('src/jobs/savePhotos.ts', "const files = await Promise.all(photos.map((p) => FileSystem.readAsStringAsync(p.uri, { encoding: 'base64' })));\nawait api(`/jobs/${jobId}/photos`, { method: 'POST', body: JSON.stringify({ files }) });"),
        say('We read every photo as a base64 string into the JS heap and put them all into one JSON body: 12 photos at 12 MP are ~70 MB of strings, copied again for the bridge. Uploading each file from disk with FileSystem.uploadAsync streams it natively without touching JS memory, and resizing to 1600 px on the long side first cuts each upload from ~5 MB to ~400 KB.'),
        ed('src/jobs/savePhotos.ts', "const files = await Promise.all(photos.map((p) => FileSystem.readAsStringAsync(p.uri, { encoding: 'base64' })));\nawait api(`/jobs/${jobId}/photos`, { method: 'POST', body: JSON.stringify({ files }) });", "for (const p of photos) {\n  const small = await manipulateAsync(p.uri, [{ resize: { width: 1600 } }], { compress: 0.8, format: SaveFormat.JPEG });\n  await FileSystem.uploadAsync(`${API_URL}/jobs/${jobId}/photos`, small.uri, { httpMethod: 'POST', uploadType: FileSystemUploadType.MULTIPART, fieldName: 'file', headers: await authHeaders() });\n}"),
        sh('npx jest src/jobs', ' PASS  src/jobs/savePhotos.test.ts\n\nTests:       6 passed, 6 total'),
      ],
      'Photos are resized to 1600 px and uploaded one by one with FileSystem.uploadAsync (multipart) instead of base64 in a JSON body; 20 photos save without the OutOfMemoryError.',
    )],
    facts: ['more than ~10 photos', 'FileSystem.uploadAsync'],
    q: [
      { ask: 'the app died when a tech attached lots of pictures to a job, what did we change?', kw: 'app died many pictures', style: 'para' },
      { ask: 'OutOfMemoryError saving photos base64 FileSystem.uploadAsync', kw: 'photo upload OutOfMemoryError base64 uploadAsync', style: 'lit' },
    ],
  },
  {
    id: 'hermes-invalid-date',
    day: 24,
    turns: [turn(
      'job times show "Invalid Date" in the release build on android. debug build and iOS are fine',
      [
        sh("curl -s -H \"authorization: Bearer $TOKEN\" $API_URL/me/jobs?days=1 | jq '.[0].scheduledAt'", '"2026-09-08 14:00:00"'),
        sh("node -e \"console.log(new Date('2026-09-08 14:00:00').toString())\"", 'Tue Sep 08 2026 14:00:00 GMT+0200 (Central European Summer Time)'),
        say('The API sends "2026-09-08 14:00:00" — a space instead of the ISO T and no offset. Our iOS build still runs on JavaScriptCore (ios.jsEngine \'jsc\' for the maps SDK) and the Android debug sessions used the remote debugger, which runs the JS in Chrome\'s V8; both accept that format leniently. Hermes, which runs the Android release build, only parses real ISO 8601 and returns Invalid Date. We parse with date-fns parseISO on our side, and I asked the API team to send offsets.'),
        gr('new Date(', 'src/lib/dates.ts:4:  return new Date(value);\nsrc/components/JobCard.tsx:22:  const at = new Date(job.scheduledAt);'),
        ed('src/lib/dates.ts', '  return new Date(value);', "  // Hermes rejects 'YYYY-MM-DD HH:mm:ss'; parseISO accepts it everywhere\n  return parseISO(value);"),
        ed('src/components/JobCard.tsx', '  const at = new Date(job.scheduledAt);', '  const at = parseApiDate(job.scheduledAt);'),
        sh('npx jest src/lib/dates.test.ts', ' PASS  src/lib/dates.test.ts\n  ✓ parses the API format with a space (3 ms)\n\nTests:       7 passed, 7 total'),
      ],
      'API dates are parsed with date-fns parseISO (parseApiDate) instead of new Date(), which Hermes rejects for "YYYY-MM-DD HH:mm:ss"; Android release shows times again.',
    )],
    facts: ['Invalid Date', 'parseISO'],
    q: [
      { ask: 'Invalid Date only in the Android release build with Hermes', kw: 'Invalid Date Hermes parseISO', style: 'lit' },
      { ask: 'appointment times rendered as garbage on only one platform in production — why?', kw: 'times garbage one platform', style: 'para' },
    ],
  },
  {
    id: 'state-zustand-react-query',
    day: 26,
    turns: [turn(
      'the new dev wants to add redux. what is our take on app state? write it down so we stop having this discussion',
      [
        gr('createStore|configureStore', 'src/state/session.ts:3:export const useSession = create<SessionState>()(persist((set) => ({'),
        say('Our rule: anything that comes from the server is react-query\'s (cache, refetch, offline persistence through the query persister); the little client-only state we have — session, UI preferences, the current draft — lives in small Zustand stores. Redux would duplicate react-query\'s cache and add boilerplate for three stores worth of state. Revisit if client-only state grows complex enough to need devtools time travel.'),
        wr('docs/adr/0002-state.md', '# 2. App state\n\nServer data: @tanstack/react-query only. Client-only state: Zustand stores in src/state/. No Redux.\n'),
        ed('CONTRIBUTING.md', '## Code style', '## Code style\n\n- Server data through react-query hooks in src/hooks; client state in Zustand (src/state). No Redux (docs/adr/0002-state.md).'),
      ],
      'Recorded in docs/adr/0002-state.md: server data in react-query, client-only state in Zustand stores, no Redux.',
    )],
    facts: ['redux', 'docs/adr/0002-state.md'],
    q: [
      { ask: 'what did we settle on for keeping data in memory across screens?', kw: 'keeping data across screens', style: 'para' },
    ],
  },
  {
    id: 'app-store-account-deletion',
    day: 28,
    turns: [
      turn(
        'apple rejected 1.3.0. can you read the rejection and tell me what we have to do?',
        [
          rd('review/rejection-1.3.0.txt', 'Guideline 5.1.1(v) - Data Collection and Storage\n\nWe noticed that your app supports account creation but does not include an option to initiate account deletion.\n\nGuideline 5.1.1(ii) - Data Collection and Storage\n\nThe purpose string for NSLocationAlwaysAndWhenInUseUsageDescription does not sufficiently explain the use of the protected resource: "Location is used."'),
          say('Two items. 5.1.1(v): apps that let users create accounts must let them start deleting the account inside the app — a link to an email is not enough. 5.1.1(ii): the location purpose string must say what we use location for. Both are fixable in this release.'),
        ],
        'The 1.3.0 rejection needs in-app account deletion (5.1.1(v)) and a specific location purpose string (5.1.1(ii)).',
      ),
      turn(
        'do both',
        [
          wr('src/screens/DeleteAccountScreen.tsx', "export function DeleteAccountScreen() {\n  const del = useMutation({ mutationFn: () => api('/me', { method: 'DELETE' }), onSuccess: signOut });\n  return <ConfirmDestructive title=\"Delete account\" body=\"Your profile and job history are deleted within 30 days.\" onConfirm={() => del.mutate()} />;\n}"),
          ed('app.config.ts', "'expo-location',", "['expo-location', { locationAlwaysAndWhenInUsePermission: 'Crewlog records your location during an active job to log arrival and travel time for the job report.' }],"),
          sh('eas build -p ios --profile production --non-interactive && eas submit -p ios --latest', '✔ Build finished\n✔ Submitted your app to Apple App Store Connect!\nYour binary has been successfully uploaded to App Store Connect.'),
        ],
        'Settings has Delete account (DELETE /me, then sign-out) and the location purpose string explains arrival and travel logging; 1.3.1 resubmitted.',
      ),
    ],
    facts: ['apple rejected 1.3.0', 'Delete account'],
    q: [
      { ask: 'why did Apple bounce our submission and what did we add?', kw: 'Apple bounced submission', style: 'para' },
      { ask: 'App Store rejection guideline 5.1.1 account deletion', kw: 'guideline 5.1.1 account deletion', style: 'lit' },
      { ask: 'what does the location permission text say now?', kw: 'location purpose string expo-location', style: 'lit', turn: 1 },
    ],
  },
  {
    id: 'store-notes-style',
    day: 30,
    turns: [turn(
      'write the store release notes for 1.4.0 from the changelog. and the rule for store notes from now on: plain language for technicians, no ticket numbers, at most four bullets',
      [
        rd('CHANGELOG.md', '## 1.4.0\n- CREW-412 FlashList for jobs list\n- CREW-431 guard signature screen (usePreventRemove)\n- CREW-440 POST_NOTIFICATIONS + jobs channel\n- CREW-452 uploadAsync for photos, resize 1600px\n- CREW-455 parseISO for API dates (Hermes)'),
        say('Understood: store notes are for the people using the app, so no ticket ids or library names, four bullets at most, the most noticeable change first. They live in store/release-notes/<version>.<locale>.txt where eas submit picks them up.'),
        wr('store/release-notes/1.4.0.en-US.txt', '- The jobs list scrolls smoothly, even with thousands of jobs.\n- Leaving the signature screen now asks first, so a signature is never lost by accident.\n- New-job notifications arrive on recent Android phones.\n- Saving many photos is faster and no longer closes the app.'),
        ed('eas.json', '"submit": {', '"submit": {\n    "production": { "ios": { "releaseNotesPath": "store/release-notes/1.4.0.en-US.txt" } },'),
      ],
      'Store notes for 1.4.0 in store/release-notes/1.4.0.en-US.txt: four plain-language bullets, no ticket numbers — the rule for every release.',
    )],
    facts: ['store release notes', 'no ticket numbers'],
    q: [
      { ask: 'how should the what\'s-new text for the app stores be written?', kw: 'what is new text app stores', style: 'para' },
    ],
  },
  {
    id: 'eas-update-runtime-fingerprint',
    day: 32,
    turns: [turn(
      'the OTA update we pushed an hour ago crashes the app on launch for everyone still on 1.3.x. roll it back and tell me why',
      [
        sh('eas update:list --branch production --limit 2', 'Update group 7c1e… "photo upload fixes"  runtime 1.3.0  published 1 h ago\nUpdate group 2a9f… "copy tweaks"          runtime 1.3.0  published 9 d ago'),
        sh('eas update:rollback --branch production --group 7c1e', '✔ Rolled back branch production to update group 2a9f'),
        rd('app.config.ts', "  runtimeVersion: { policy: 'appVersion' },"),
        say('runtimeVersion follows the app version, and we did not bump the version when the photo fix added expo-image-manipulator, so the update was published for runtime 1.3.0 — but it calls a native module the 1.3.0 binaries do not contain. The JS calls into a module that is not there: "Cannot find native module \'ExpoImageManipulator\'". The fingerprint policy hashes the native dependencies and config, so an update only reaches binaries with the same native code.'),
        ed('app.config.ts', "  runtimeVersion: { policy: 'appVersion' },", "  runtimeVersion: { policy: 'fingerprint' },"),
        sh('npx expo-updates fingerprint:generate --platform ios | jq -r .hash', '3f6a0c82b19e4d7a5c1e0b9f27d84a61e03b5c92'),
      ],
      'Rolled production back to the previous update; runtimeVersion uses the fingerprint policy, so OTA updates only reach builds with the same native modules.',
    )],
    facts: ['OTA update', 'fingerprint'],
    q: [
      { ask: 'EAS Update crashed old binaries: runtimeVersion appVersion vs fingerprint', kw: 'EAS Update runtimeVersion fingerprint', style: 'lit' },
      { ask: 'an over-the-air push broke people on older installs — how do we keep that from happening again?', kw: 'over-the-air push broke older installs', style: 'para' },
    ],
  },
  {
    id: 'gradle-heap-space',
    day: 34,
    turns: [turn(
      'EAS android production builds started failing at mergeReleaseResources with java heap space',
      [
        sh('eas build:view --json | jq -r .logFiles[0] | xargs curl -s | grep -A3 "What went wrong"', "* What went wrong:\nExecution failed for task ':app:mergeReleaseResources'.\n> A failure occurred while executing com.android.build.gradle.internal.res.ResourceCompilerRunnable\n   > Java heap space"),
        say('The Gradle daemon runs with the template default of -Xmx2048m, and since we added the offline map tiles and the onboarding animations the release resource merge needs more. The EAS large Android worker has 16 GB; giving Gradle 4 GB and Metaspace 1 GB is safe. gradle.properties is generated, so it goes through expo-build-properties... which does not expose jvmargs, so a tiny config plugin sets it.'),
        wr('plugins/withGradleJvmArgs.js', "const { withGradleProperties } = require('expo/config-plugins');\n\nmodule.exports = (config) => withGradleProperties(config, (c) => {\n  c.modResults = c.modResults.filter((p) => p.key !== 'org.gradle.jvmargs');\n  c.modResults.push({ type: 'property', key: 'org.gradle.jvmargs', value: '-Xmx4096m -XX:MaxMetaspaceSize=1024m' });\n  return c;\n});"),
        ed('eas.json', '"production": {\n      "android": {', '"production": {\n      "android": {\n        "resourceClass": "large",'),
        sh('eas build -p android --profile production --non-interactive', '✔ Build finished\n🤖 Android app:\nhttps://expo.dev/artifacts/eas/p2k9QZ.aab'),
      ],
      'Android release builds pass: org.gradle.jvmargs -Xmx4096m set by plugins/withGradleJvmArgs.js, and the production profile uses the large EAS worker.',
    )],
    facts: ['java heap space', 'org.gradle.jvmargs'],
    q: [
      { ask: 'Java heap space at mergeReleaseResources on EAS', kw: 'heap space mergeReleaseResources jvmargs', style: 'lit' },
    ],
  },
  {
    id: 'universal-links-aasa',
    day: 36,
    turns: [turn(
      'job links in the dispatch emails open safari instead of the app on iphone. android opens the app fine',
      [
        sh('curl -sI https://crewlog.northwind.app/.well-known/apple-app-site-association | grep -i -E "^HTTP|content-type"', 'HTTP/2 301\ncontent-type: text/html'),
        sh('curl -sL https://crewlog.northwind.app/.well-known/apple-app-site-association | head -c 80', '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Crewlog</ti'),
        say('iOS fetches apple-app-site-association when the app is installed; it must be served at that exact path, with no redirect, as JSON. Our web host redirects to the trailing-slash URL and the single-page app answers with its index.html, so iOS finds no association and opens Safari. Android verifies assetlinks.json, which is served correctly. I added the file to the web app\'s static folder with the right type, and the app config already lists applinks:crewlog.northwind.app.'),
        wr('web/public/.well-known/apple-app-site-association', '{\n  "applinks": {\n    "details": [{ "appIDs": ["8QK2N3X7UL.com.northwind.crewlog"], "components": [{ "/": "/jobs/*" }] }]\n  }\n}\n'),
        ed('web/vercel.json', '"headers": [', '"headers": [\n    { "source": "/.well-known/apple-app-site-association", "headers": [{ "key": "Content-Type", "value": "application/json" }] },'),
        sh('curl -sI https://crewlog.northwind.app/.well-known/apple-app-site-association | grep -i -E "^HTTP|content-type"', 'HTTP/2 200\ncontent-type: application/json'),
      ],
      'apple-app-site-association is served at /.well-known without redirect as application/json; job links from emails open the app on iPhone after reinstall.',
    )],
    facts: ['open safari instead of the app', 'apple-app-site-association'],
    q: [
      { ask: 'tapping a job link in an email opened the browser instead of the app on iPhones — why?', kw: 'email link opened browser iPhone', style: 'para' },
      { ask: 'universal links apple-app-site-association redirect content-type', kw: 'apple-app-site-association universal links', style: 'lit' },
    ],
  },
  {
    id: 'sentry-hermes-sourcemaps',
    day: 38,
    turns: [turn(
      'sentry crash reports from the phones are useless — index.android.bundle:1:88412 everywhere',
      [
        rd('app.config.ts', "  plugins: ['./plugins/withNodeBinary', '@sentry/react-native/expo',"),
        sh('npx sentry-cli releases files com.northwind.crewlog@1.4.0+41 list', '+------+--------------+\n| Name | Distribution |\n+------+--------------+\n+------+--------------+'),
        say('No source maps were uploaded for the release. The Sentry Expo plugin only uploads during EAS builds when SENTRY_AUTH_TOKEN is set on the build, and for OTA updates nothing uploads at all unless we run the upload after eas update. The token was in our local .env, never in the EAS secrets. And Hermes bundles need the Hermes-compiled maps, which the plugin handles if it runs.'),
        sh('eas secret:create --scope project --name SENTRY_AUTH_TOKEN --value "$SENTRY_AUTH_TOKEN" --type string', '✔ Created a new secret SENTRY_AUTH_TOKEN on project @northwind/crewlog.'),
        ed('package.json', '"update:prod": "eas update --branch production"', '"update:prod": "eas update --branch production && npx sentry-expo-upload-sourcemaps dist"'),
        sh('npx sentry-cli releases files com.northwind.crewlog@1.4.1+42 list | head -5', '+-------------------------------+--------------+\n| Name                          | Distribution |\n+-------------------------------+--------------+\n| ~/index.android.bundle        | 42           |\n| ~/index.android.bundle.map    | 42           |'),
      ],
      'Sentry gets source maps for every build (SENTRY_AUTH_TOKEN as an EAS secret) and every OTA update (update:prod uploads after eas update); crash reports show TypeScript lines.',
    )],
    facts: ['index.android.bundle', 'SENTRY_AUTH_TOKEN'],
    q: [
      { ask: 'crash reports from the phones showed minified gibberish — how was that fixed?', kw: 'crash reports minified', style: 'para' },
      { ask: 'sentry source maps for hermes bundles with EAS build and eas update', kw: 'sentry sourcemaps EAS SENTRY_AUTH_TOKEN', style: 'lit' },
    ],
  },
  {
    id: 'jest-transform-ignore',
    day: 40,
    turns: [turn(
      'since I added the charts package, jest blows up with SyntaxError: Cannot use import statement outside a module',
      [
        sh('npx jest src/screens/StatsScreen.test.tsx', lines(
          ' FAIL  src/screens/StatsScreen.test.tsx',
          '  ● Test suite failed to run',
          '',
          '    Jest encountered an unexpected token',
          '',
          '    Details:',
          '',
          `    ${ROOT}/node_modules/victory-native/src/index.ts:1`,
          "    ({\"Object.<anonymous>\":function(module,exports,require,__dirname,__filename,jest){import { CartesianChart } from './cartesian/CartesianChart';",
          '                                                                                      ^^^^^^',
          '',
          '    SyntaxError: Cannot use import statement outside a module',
        ), 1),
        rd('jest.config.js', "module.exports = {\n  preset: 'jest-expo',\n  transformIgnorePatterns: ['node_modules/(?!((jest-)?react-native|@react-native(-community)?)|expo(nent)?|@expo(nent)?/.*|@react-navigation/.*)'],\n};"),
        say('Jest does not transform node_modules except the packages matched in that negative lookahead, and victory-native ships untranspiled TypeScript with ESM imports. It has to be added to the list (with its dependency @shopify/react-native-skia, which does the same).'),
        ed('jest.config.js', '|@react-navigation/.*)', '|@react-navigation/.*|victory-native|@shopify/react-native-skia)'),
        sh('npx jest src/screens/StatsScreen.test.tsx', ' PASS  src/screens/StatsScreen.test.tsx\n\nTests:       4 passed, 4 total'),
      ],
      'victory-native and @shopify/react-native-skia are in jest\'s transformIgnorePatterns allow-list; StatsScreen tests run.',
    )],
    facts: ['Cannot use import statement outside a module', 'transformIgnorePatterns'],
    q: [
      { ask: 'jest SyntaxError: Cannot use import statement outside a module after adding victory-native', kw: 'transformIgnorePatterns victory-native jest', style: 'lit' },
      { ask: 'the unit test runner choked on a freshly installed library\'s source — which setting did we adjust?', kw: 'test runner choked new library', style: 'para' },
    ],
  },
  {
    id: 'theme-tokens-rule',
    day: 42,
    turns: [turn(
      'add dark mode. and a rule while we are at it: no hex colours in components anymore, only theme tokens',
      [
        gr('#[0-9a-fA-F]{6}', 'src/components/JobCard.tsx:41:    backgroundColor: \'#ffffff\',\nsrc/components/JobCard.tsx:44:    color: \'#1b1f24\',\nsrc/screens/SignInScreen.tsx:18:    backgroundColor: \'#0a5fff\',\n... 63 more'),
        say('Agreed: components use semantic tokens (surface, text, accent, danger…) and never raw colours; the palette lives only in src/theme. useTheme() picks light or dark from useColorScheme(). I\'ll add an ESLint rule so a new hex literal in src/components or src/screens fails lint.'),
        wr('src/theme/tokens.ts', "export const light = { surface: '#ffffff', text: '#1b1f24', muted: '#5b6470', accent: '#0a5fff', danger: '#d92d20' } as const;\nexport const dark: Record<keyof typeof light, string> = { surface: '#0f1115', text: '#e6e8eb', muted: '#98a1ad', accent: '#5b8cff', danger: '#f97066' };\nexport const useTheme = () => (useColorScheme() === 'dark' ? dark : light);"),
        ed('.eslintrc.js', 'rules: {', "rules: {\n    'no-restricted-syntax': ['error', { selector: 'Literal[value=/^#[0-9a-fA-F]{3,8}$/]', message: 'Use a theme token (src/theme/tokens.ts), not a colour literal.' }],"),
        ed('app.config.ts', "  version: '1.6.0',", "  version: '1.6.0',\n  userInterfaceStyle: 'automatic',"),
        sh('npm run lint 2>&1 | tail -2', '\n✖ 0 problems'),
      ],
      'Dark mode follows the system (userInterfaceStyle automatic, useTheme from src/theme/tokens.ts); colour literals outside src/theme fail lint — components use tokens only.',
    )],
    facts: ['dark mode', 'theme tokens'],
    q: [{ ask: 'may I put a raw colour code straight into a component?', kw: 'raw colour code component', style: 'para' }],
  },
  {
    id: 'keyboard-covers-notes',
    day: 44,
    turns: [turn(
      'on android the keyboard covers the job notes field, you cannot see what you type',
      [
        rd('src/screens/JobScreen.tsx', '<ScrollView>\n  <JobHeader job={job} />\n  <TextInput multiline value={notes} onChangeText={setNotes} style={styles.notes} />\n</ScrollView>'),
        rd('app.config.ts', "  android: { package: 'com.northwind.crewlog', softwareKeyboardLayoutMode: 'pan' },"),
        say('Our config still has softwareKeyboardLayoutMode "pan" from the old template: Android shifts the whole window just far enough to show the top of the focused field, and a multiline field inside a ScrollView disappears under the keyboard as it grows. Setting resize mode and wrapping the screen in KeyboardAvoidingView — padding on iOS, nothing extra on Android once the window resizes — keeps the field above the keyboard on both.'),
        ed('app.config.ts', "softwareKeyboardLayoutMode: 'pan' },", "softwareKeyboardLayoutMode: 'resize' },"),
        ed('src/screens/JobScreen.tsx', '<ScrollView>', "<KeyboardAvoidingView style={{ flex: 1 }} behavior={Platform.OS === 'ios' ? 'padding' : undefined}>\n<ScrollView keyboardShouldPersistTaps=\"handled\">"),
        sh('npx expo prebuild -p android --clean --no-install && npx expo run:android', '✔ Finished prebuild\nBUILD SUCCESSFUL in 2m 1s\n› Opening com.northwind.crewlog'),
      ],
      'Android uses softwareKeyboardLayoutMode resize and JobScreen sits in a KeyboardAvoidingView (padding on iOS); the notes field stays visible while typing.',
    )],
    facts: ['keyboard covers', 'softwareKeyboardLayoutMode'],
    q: [
      { ask: 'keyboard covers the notes TextInput on android', kw: 'keyboard covers input KeyboardAvoidingView softwareKeyboardLayoutMode', style: 'lit' },
      { ask: 'the typing area got hidden when the on-screen keys came up — how was it solved?', kw: 'typing area hidden on-screen keys', style: 'para' },
    ],
  },
  {
    id: 'e2e-maestro',
    day: 46,
    turns: [turn(
      'we need end-to-end tests for sign in → open job → sign → complete. detox or something lighter?',
      [
        say('Maestro: flows are YAML, it drives the real release build on a simulator or emulator without any native test code in our app, and it waits for elements itself, which is where Detox setups usually get flaky. Detox would need its own native build configuration that prebuild regenerates. We lose Detox\'s JS-level synchronization, which we do not need for four flows.'),
        wr('.maestro/complete-job.yaml', 'appId: com.northwind.crewlog\n---\n- launchApp: { clearState: true }\n- tapOn: "Email"\n- inputText: "e2e@northwind.app"\n- tapOn: "Sign in"\n- tapOn: "Boiler service – Hill St 14"\n- tapOn: "Customer signature"\n- swipe: { start: "20%,60%", end: "80%,62%" }\n- tapOn: "Save signature"\n- tapOn: "Complete job"\n- assertVisible: "Completed"\n'),
        sh('maestro test .maestro/complete-job.yaml', 'Running on emulator-5554\n\n ║  > Flow complete-job\n ║    ✅ Launch app "com.northwind.crewlog" with clear state\n ║    ✅ Tap on "Sign in"\n ║    ✅ Tap on "Complete job"\n ║    ✅ Assert that "Completed" is visible\n\n  1/1 Flow Passed in (41s)'),
      ],
      'End-to-end tests are Maestro flows in .maestro/ (complete-job.yaml passes); Detox was not chosen because of its native build setup.',
    )],
    facts: ['end-to-end tests', 'Maestro'],
    q: [
      { ask: 'what do we use for tap-through tests of whole user journeys, and why that one?', kw: 'tap-through tests user journeys', style: 'para' },
    ],
  },
  {
    id: 'ios-cert-expired',
    day: 48,
    turns: [turn(
      'eas ios build fails at signing since this morning',
      [
        sh('eas build -p ios --profile production --non-interactive', lines(
          '✔ Using remote iOS credentials (Expo server)',
          '',
          'Distribution Certificate is not validated for non-interactive builds.',
          '    Failed to set up credentials.',
          '    Distribution certificate with serial number "6A3F09D1C2B7E84A" has expired (2026-10-19).',
          'Error: build command failed.',
        ), 1),
        say('The App Store distribution certificate is valid for one year and it expired yesterday; non-interactive CI builds cannot create a new one. Regenerating it through eas credentials replaces the certificate and the provisioning profile that references it. Apps already in the store are unaffected.'),
        sh('eas credentials -p ios', '? Which build profile do you want to configure? production\n? What do you want to do? Build Credentials: Manage everything needed to build your project\n? Generate a new Apple Distribution Certificate? Yes\n✔ Created Apple Distribution Certificate\n✔ Created Apple provisioning profile\nDistribution Certificate  Serial Number 1E77C03A92B4F5D6  Expiration Date 2027-10-20'),
        ed('docs/release.md', '## Calendar', '## Calendar\n\n- Apple distribution certificate expires 2027-10-20 — renew with `eas credentials -p ios` the week before.'),
        sh('eas build -p ios --profile production --non-interactive', '✔ Build finished\n🍏 iOS app:\nhttps://expo.dev/artifacts/eas/b8TmWq.ipa'),
      ],
      'New Apple distribution certificate and provisioning profile via eas credentials (expires 2027-10-20, noted in docs/release.md); iOS builds sign again.',
    )],
    facts: ['fails at signing', 'eas credentials'],
    q: [
      { ask: 'Distribution certificate has expired in EAS iOS build', kw: 'distribution certificate expired eas credentials', style: 'lit' },
      { ask: 'the iPhone build refused to sign — what had lapsed, and when is it due again?', kw: 'iPhone build refused sign lapsed', style: 'para' },
    ],
  },
  {
    id: 'sqlite-migration-user-version',
    day: 50,
    turns: [turn(
      'after 1.5.0 some devices crash immediately on launch. sentry: no such column: signed_at',
      [
        sh('npx sentry-cli issues list --query "no such column" --max-rows 1', '+-----------+-------------------------------------------------------------+--------+\n| Issue     | Title                                                       | Events |\n+-----------+-------------------------------------------------------------+--------+\n| CREWLOG-8Q| Error: Call to function \'NativeDatabase.prepareSync\' has been rejected. → Caused by: no such column: signed_at | 1,284 |'),
        rd('src/db/migrations.ts', "export function migrate(db: SQLiteDatabase) {\n  db.execSync('create table if not exists jobs (id text primary key, status text, notes text)');\n  db.execSync('create table if not exists pending_ops (id integer primary key, op_id text, kind text, payload text, created_at integer)');\n}"),
        say('The 1.5.0 code reads jobs.signed_at, but migrate() only has create table if not exists: on a fresh install the new column is in the create statement, on devices that already had the table nothing changes. The on-device schema needs versioned migrations: PRAGMA user_version records which ones ran, and each step alters the table once.'),
        ed('src/db/migrations.ts', 'export function migrate(db: SQLiteDatabase) {', "const STEPS: string[] = [\n  'create table if not exists jobs (id text primary key, status text, notes text)',\n  'create table if not exists pending_ops (id integer primary key, op_id text, kind text, payload text, created_at integer)',\n  'alter table jobs add column signed_at integer',\n];\n\nexport function migrate(db: SQLiteDatabase) {\n  const { user_version: at } = db.getFirstSync<{ user_version: number }>('pragma user_version')!;\n  db.withTransactionSync(() => {\n    STEPS.slice(at).forEach((s) => db.execSync(s));\n    db.execSync(`pragma user_version = ${STEPS.length}`);\n  });"),
        sh('npx jest src/db/migrations.test.ts', ' PASS  src/db/migrations.test.ts\n  ✓ upgrades a 1.4 database to the current schema (22 ms)\n  ✓ is a no-op on a current database (4 ms)\n\nTests:       2 passed, 2 total'),
      ],
      'The local SQLite schema is migrated in numbered steps tracked by PRAGMA user_version (signed_at added by step 3); 1.5.1 fixes the launch crash on upgraded devices.',
    )],
    facts: ['no such column: signed_at', 'user_version'],
    q: [
      { ask: 'after the last release some devices crashed right when opening the app — what was wrong with the on-device database?', kw: 'devices crashed opening on-device database', style: 'para' },
      { ask: 'no such column signed_at sqlite migration user_version', kw: 'sqlite migration user_version signed_at', style: 'lit' },
    ],
  },
  {
    id: 'bundle-size-moment-lodash',
    day: 52,
    turns: [turn(
      'the JS bundle is 9.4 MB and cold start on the cheap android phones is 4+ seconds. find what is big',
      [
        sh('npx react-native-bundle-visualizer --platform android --only-mapped | head -6', 'Bundle size: 9.41 MB\n  node_modules/moment/locale          1.62 MB  (17.2 %)\n  node_modules/lodash                 0.54 MB  (5.7 %)\n  node_modules/moment/moment.js       0.17 MB\n  src                                 1.31 MB'),
        say('moment pulls in every locale (1.6 MB) though we ship English and German, and `import _ from \'lodash\'` brings the whole library for four functions. We already use date-fns in the new code: replace moment there too, and import the lodash functions from their own paths.'),
        gr("from 'moment'|from 'lodash'", "src/lib/format.ts:1:import moment from 'moment';\nsrc/components/JobCard.tsx:3:import _ from 'lodash';\nsrc/sync/conflicts.ts:2:import _ from 'lodash';"),
        ed('src/lib/format.ts', "import moment from 'moment';", "import { format } from 'date-fns';\nimport { de, enUS } from 'date-fns/locale';"),
        ed('src/sync/conflicts.ts', "import _ from 'lodash';", "import isEqual from 'lodash/isEqual';\nimport pick from 'lodash/pick';"),
        sh('npm uninstall moment && npx react-native-bundle-visualizer --platform android --only-mapped | head -1', 'removed 1 package in 2s\nBundle size: 6.92 MB'),
      ],
      'Bundle down from 9.41 MB to 6.92 MB: moment (all locales) replaced by date-fns with en/de, lodash imported per function.',
    )],
    facts: ['9.4 MB', 'date-fns'],
    q: [
      { ask: 'how did we make the downloaded app code smaller and start faster?', kw: 'smaller app code faster start', style: 'para' },
      { ask: 'bundle size moment locales lodash react-native-bundle-visualizer', kw: 'bundle size moment lodash', style: 'lit' },
    ],
  },
  {
    id: 'flaky-snapshot-timezone',
    day: 54,
    turns: [turn(
      'JobCard snapshot fails for Priya but passes for me. she is in Bangalore, I am in Berlin',
      [
        sh('TZ=Asia/Kolkata npx jest src/components/JobCard.test.tsx', lines(
          ' FAIL  src/components/JobCard.test.tsx',
          '  ● JobCard › renders a scheduled job',
          '',
          '    expect(received).toMatchSnapshot()',
          '',
          '    Snapshot name: `JobCard renders a scheduled job 1`',
          '',
          '    - Snapshot  - 1',
          '    + Received  + 1',
          '',
          '    -         14:00 · Boiler service',
          '    +         17:30 · Boiler service',
          '',
          ' › 1 snapshot failed.',
        ), 1),
        say('The fixture time is a UTC instant and JobCard formats it in the device time zone, so the rendered text — and the snapshot — depend on where the test runs. Tests should run in one zone: TZ set in the jest global setup, and the snapshot regenerated under it.'),
        wr('jest.global-setup.js', "module.exports = async () => {\n  process.env.TZ = 'UTC';\n};"),
        ed('jest.config.js', "  preset: 'jest-expo',", "  preset: 'jest-expo',\n  globalSetup: './jest.global-setup.js',"),
        sh('npx jest src/components/JobCard.test.tsx -u && TZ=Asia/Kolkata npx jest src/components/JobCard.test.tsx', ' PASS  src/components/JobCard.test.tsx\n › 1 snapshot updated.\n PASS  src/components/JobCard.test.tsx\n\nSnapshots:   3 passed, 3 total'),
      ],
      'Jest runs in TZ=UTC (jest.global-setup.js), so JobCard\'s time snapshot is the same in every time zone.',
    )],
    facts: ['snapshot', 'TZ=UTC'],
    q: [{ ask: 'a snapshot only matched on my own computer, not a colleague\'s abroad — what was the cause?', kw: 'snapshot matched only my computer', style: 'para' }],
  },
  {
    id: 'location-battery',
    day: 56,
    turns: [turn(
      'techs say the app eats 30% battery a day. it is the location tracking, right?',
      [
        sh('adb shell dumpsys batterystats --charged com.northwind.crewlog | grep -E "Wake lock|GPS"', '    Wake lock *location* realtime: 6h 41m 12s\n    Sensor GPS: 6h 40m 57s realtime (412 times)'),
        rd('src/location/track.ts', "await Location.startLocationUpdatesAsync(TRACK_TASK, { accuracy: Location.Accuracy.BestForNavigation, timeInterval: 5000, foregroundService: { notificationTitle: 'Crewlog' } });"),
        say('Yes: we start tracking at sign-in and never stop, with navigation accuracy every 5 seconds — the GPS runs almost 7 hours a day. What the job report needs is arrival and travel time, so tracking runs only while a job is "on the way" or "in progress", with balanced accuracy and a 50 m distance filter.'),
        ed('src/location/track.ts', '{ accuracy: Location.Accuracy.BestForNavigation, timeInterval: 5000,', '{ accuracy: Location.Accuracy.Balanced, distanceInterval: 50, deferredUpdatesInterval: 60_000,'),
        ed('src/jobs/status.ts', 'export async function setStatus(job: Job, status: JobStatus) {', "export async function setStatus(job: Job, status: JobStatus) {\n  if (status === 'en_route' || status === 'in_progress') await startTracking(job.id);\n  else await stopTracking();"),
      ],
      'Location is tracked only while a job is en route or in progress, at Balanced accuracy with a 50 m distance filter, instead of all day at BestForNavigation every 5 s.',
    )],
    facts: ['30% battery', 'Accuracy.Balanced'],
    q: [
      { ask: 'technicians complained the app drained their phones, what did we change?', kw: 'app drained phones', style: 'para' },
      { ask: 'background location battery BestForNavigation distanceInterval', kw: 'location battery Balanced distanceInterval', style: 'lit' },
    ],
  },
  {
    id: 'target-sdk-34-fgs',
    day: 58,
    turns: [turn(
      'play console says new updates must target API 34 by 31 august. bump it — and check nothing breaks',
      [
        ed('app.config.ts', "  plugins: [", "  plugins: [['expo-build-properties', { android: { targetSdkVersion: 34, compileSdkVersion: 34 } }],"),
        sh('npx expo run:android --variant release && adb logcat -d | grep -m2 -A1 FATAL', 'BUILD SUCCESSFUL in 3m 40s\nE AndroidRuntime: FATAL EXCEPTION: main\nE AndroidRuntime: android.app.MissingForegroundServiceTypeException: Starting FGS without a type  callerApp=ProcessRecord{6a1f2 24810:com.northwind.crewlog/u0a231} targetSDK=34'),
        say('Android 14 requires every foreground service to declare its type once you target 34. Our location tracking runs as a foreground service, so it needs foregroundServiceType="location" and the FOREGROUND_SERVICE_LOCATION permission; expo-location adds both when isAndroidForegroundServiceEnabled is set in its plugin options.'),
        ed('app.config.ts', "['expo-location', {", "['expo-location', { isAndroidForegroundServiceEnabled: true, isAndroidBackgroundLocationEnabled: true,"),
        sh('npx expo prebuild -p android --clean --no-install && grep -n foregroundServiceType android/app/src/main/AndroidManifest.xml', '✔ Finished prebuild\n41:      <service android:name="expo.modules.location.services.LocationTaskService" android:foregroundServiceType="location" android:exported="false"/>'),
      ],
      'Android targets API 34 (expo-build-properties); the location foreground service declares type location through expo-location\'s options, fixing MissingForegroundServiceTypeException.',
    )],
    facts: ['API 34', 'foregroundServiceType'],
    q: [
      { ask: 'MissingForegroundServiceTypeException after targetSdkVersion 34', kw: 'targetSdkVersion 34 MissingForegroundServiceTypeException', style: 'lit' },
      { ask: 'Google\'s store demanded a newer platform level — what broke when we raised it?', kw: 'store demanded newer platform level', style: 'para' },
    ],
  },
  {
    id: 'ci-eas-on-tags',
    day: 60,
    turns: [turn(
      'we burn EAS build credits on every push. set up CI so PRs only check and real builds happen on release tags',
      [
        rd('.github/workflows/build.yml', 'on:\n  push:\n    branches: ["**"]'),
        say('Two workflows. checks.yml on every pull request: typecheck, lint, jest, expo-doctor — no EAS. release.yml on tags v*: eas build for both platforms with the production profile and auto-submit, using the EXPO_TOKEN secret. JS-only fixes between releases still go out as OTA updates from main.'),
        wr('.github/workflows/checks.yml', 'on: pull_request\njobs:\n  checks:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with: { node-version-file: .nvmrc, cache: npm }\n      - run: npm ci\n      - run: npx tsc --noEmit && npm run lint && npm test -- --ci && npx expo-doctor\n'),
        wr('.github/workflows/release.yml', 'on:\n  push:\n    tags: ["v*"]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: expo/expo-github-action@v8\n        with: { eas-version: latest, token: "${{ secrets.EXPO_TOKEN }}" }\n      - run: npm ci\n      - run: eas build --platform all --profile production --non-interactive --no-wait --auto-submit\n'),
        sh('git rm .github/workflows/build.yml && git tag v1.6.0 && git push origin v1.6.0 && gh run list --workflow release.yml --limit 1', 'rm \'.github/workflows/build.yml\'\n * [new tag]         v1.6.0 -> v1.6.0\nSTATUS  TITLE   WORKFLOW  BRANCH  EVENT  ID\n*       v1.6.0  release   v1.6.0  push   11920311'),
      ],
      'Pull requests run checks.yml (tsc, lint, jest, expo-doctor); EAS builds and store submission run only on v* tags (release.yml, EXPO_TOKEN).',
    )],
    facts: ['EAS build credits', 'release.yml'],
    q: [
      { ask: 'when does CI start EAS builds?', kw: 'CI EAS build tags release.yml', style: 'lit' },
    ],
  },
  {
    id: 'a11y-icon-buttons',
    day: 62,
    turns: [turn(
      'a customer who uses VoiceOver wrote in: half the buttons just say "button". fix the icon buttons',
      [
        gr('<IconButton', 'src/components/JobCard.tsx:51:      <IconButton icon="phone" onPress={call} />\nsrc/screens/JobScreen.tsx:33:      <IconButton icon="camera" onPress={addPhoto} />\nsrc/screens/JobScreen.tsx:34:      <IconButton icon="map" onPress={openMap} />\n... 14 more'),
        say('Icon-only buttons have no text for VoiceOver or TalkBack to read, so they are announced as "button". IconButton now requires an accessibilityLabel prop (a type error without it), sets accessibilityRole="button", and the lint plugin catches touchables without labels elsewhere.'),
        ed('src/components/IconButton.tsx', 'type Props = { icon: IconName; onPress: () => void };', 'type Props = { icon: IconName; onPress: () => void; accessibilityLabel: string; accessibilityHint?: string };'),
        sh('npx tsc --noEmit | head -3', "src/components/JobCard.tsx(51,8): error TS2741: Property 'accessibilityLabel' is missing in type '{ icon: \"phone\"; onPress: () => void; }' but required in type 'Props'.\nsrc/screens/JobScreen.tsx(33,8): error TS2741: Property 'accessibilityLabel' is missing in type '{ icon: \"camera\"; onPress: () => Promise<void>; }' but required in type 'Props'."),
        ed('src/components/JobCard.tsx', '<IconButton icon="phone" onPress={call} />', '<IconButton icon="phone" onPress={call} accessibilityLabel={t(\'job.callCustomer\', { name: job.customerName })} />'),
        sh('npx tsc --noEmit && npm run lint', '\n> crewlog@1.6.0 lint\n> eslint . --max-warnings 0\n'),
      ],
      'IconButton requires an accessibilityLabel (17 call sites labelled, translated); screen readers announce what each icon button does.',
    )],
    facts: ['VoiceOver', 'accessibilityLabel'],
    q: [
      { ask: 'blind users heard nothing useful on our icon-only controls — what did we do?', kw: 'blind users icon-only controls', style: 'para' },
      { ask: 'accessibilityLabel on IconButton for VoiceOver and TalkBack', kw: 'accessibilityLabel IconButton VoiceOver', style: 'lit' },
    ],
  },
  {
    id: 'version-code-autoincrement',
    day: 63,
    turns: [turn(
      'eas submit to google play failed: version code 41 has already been used. I built twice from the same commit',
      [
        sh('eas submit -p android --latest', 'Submitting your app to Google Play Store...\n✖ Google Play API error: APK specifies a version code that has already been used. (versionCode: 41)\nError: submit command failed.'),
        rd('eas.json', '{\n  "cli": { "version": ">= 12.0.0" },\n  "build": { "production": { "android": { "buildType": "app-bundle" } } }\n}'),
        say('versionCode comes from app.config.ts (41) and was never bumped between the two builds, and Play refuses a code it has seen. EAS can own the build numbers: appVersionSource remote keeps the counter on Expo\'s servers and autoIncrement bumps it on every production build, for Android versionCode and iOS buildNumber alike. The human-facing version stays in app.config.ts.'),
        ed('eas.json', '"cli": { "version": ">= 12.0.0" },', '"cli": { "version": ">= 12.0.0", "appVersionSource": "remote" },'),
        ed('eas.json', '"production": { "android": { "buildType": "app-bundle" } }', '"production": { "autoIncrement": true, "android": { "buildType": "app-bundle" } }'),
        sh('eas build:version:set -p android --build-version 41 && eas build -p android --profile production --non-interactive --auto-submit | grep -E "versionCode|Submitted"', '✔ Android versionCode set to 41\nIncremented versionCode from 41 to 42.\n✔ Submitted your app to Google Play Store!'),
      ],
      'Build numbers are managed by EAS (appVersionSource remote, autoIncrement on production): versionCode 42 submitted, no more reused codes.',
    )],
    facts: ['version code 41', 'autoIncrement'],
    q: [
      { ask: 'version code has already been used when submitting to Google Play', kw: 'versionCode already used autoIncrement appVersionSource', style: 'lit' },
      { ask: 'the store upload refused our build because its number was taken — how do we avoid that now?', kw: 'upload refused build number taken', style: 'para' },
    ],
  },
];

export const MOBILE_APP: ProjectHistory = {
  key: 'mobile-app',
  dir: 'crewlog-mobile',
  remote: 'git@github.com:northwind-labs/crewlog-mobile.git',
  kind: 'React Native mobile app',
  firstDay: '2026-08-10',
  days: 65,
  episodes: EPISODES,
  noiseCount: 36,
  noise: noiseTemplates(VOCAB),
  warmups: warmupTemplates(VOCAB),
  explore: exploreSteps(VOCAB),
};
