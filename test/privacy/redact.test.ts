import { describe, expect, it } from 'vitest';
import { isSecretName, redactSecrets } from '../../src/shared/privacy.js';

const R = '[REDACTED]';

// Secrets are assembled at run time so no literal key-shaped string sits in the repository.
const rnd = (n: number, alphabet = 'aB3dE5fG7hJ9kLmN2pQ4rS6tUvWxYz0'): string =>
  Array.from({ length: n }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join('');

describe('redactSecrets: provider keys', () => {
  const cases: Array<[string, string]> = [
    ['Anthropic', `sk-ant-api03-${rnd(40)}-${rnd(8)}`],
    ['OpenAI project', `sk-proj-${rnd(48)}`],
    ['OpenAI legacy', `sk-${rnd(48)}`],
    ['DeepSeek', `sk-${rnd(32, '0123456789abcdef')}`],
    ['OpenRouter', `sk-or-v1-${rnd(64, '0123456789abcdef')}`],
    ['GitHub classic', `ghp_${rnd(36)}`],
    ['GitHub oauth', `gho_${rnd(36)}`],
    ['GitHub user-to-server', `ghu_${rnd(36)}`],
    ['GitHub server-to-server', `ghs_${rnd(36)}`],
    ['GitHub refresh', `ghr_${rnd(36)}`],
    ['GitHub fine-grained', `github_pat_${rnd(22)}_${rnd(59)}`],
    ['GitLab', `glpat-${rnd(20)}`],
    ['Slack bot', `xoxb-123456789012-1234567890123-${rnd(24)}`],
    ['Slack user', `xoxp-123456789012-${rnd(24)}`],
    ['AWS access key id', `AKIA${rnd(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`],
    ['AWS temporary key id', `ASIA${rnd(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`],
    ['Google', `AIza${rnd(35)}`],
    ['Stripe live', `sk_live_${rnd(24)}`],
    ['Stripe restricted', `rk_live_${rnd(24)}`],
    ['npm', `npm_${rnd(36)}`],
    ['HuggingFace', `hf_${rnd(34)}`],
    ['xAI', `xai-${rnd(80)}`],
    ['Groq', `gsk_${rnd(52)}`],
    ['JWT', `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${rnd(43)}`],
  ];
  for (const [name, secret] of cases) {
    it(`redacts ${name}`, () => {
      const out = redactSecrets(`before ${secret} after`);
      expect(out).toBe(`before ${R} after`);
      expect(out).not.toContain(secret.slice(4, 16));
    });
  }

  it('redacts keys inside quotes, JSON and URLs query strings', () => {
    const key = `sk-ant-api03-${rnd(40)}`;
    expect(redactSecrets(`"${key}"`)).toBe(`"${R}"`);
    expect(redactSecrets(`{"k":"${key}"}`)).toBe(`{"k":"${R}"}`);
    expect(redactSecrets(`https://api.example.com/v1?key=${key}&x=1`)).toBe(`https://api.example.com/v1?key=${R}&x=1`);
  });

  it('is idempotent', () => {
    const text = `token ghp_${rnd(36)} and postgres://u:${rnd(12)}@db/x and API_KEY=${rnd(20)}`;
    const once = redactSecrets(text);
    expect(redactSecrets(once)).toBe(once);
  });
});

describe('redactSecrets: headers, URLs, private keys', () => {
  it('redacts Authorization headers and bearer tokens', () => {
    expect(redactSecrets('Authorization: Bearer abc123DEF456ghi789')).toBe(`Authorization: Bearer ${R}`);
    expect(redactSecrets('curl -H "Authorization: Basic dXNlcjpwYXNzd29yZA=="')).toBe(`curl -H "Authorization: Basic ${R}"`);
    expect(redactSecrets('authorization=token Zx9Yw8Vu7Ts6')).toBe(`authorization=token ${R}`);
    expect(redactSecrets('send bearer Q2hhbmdlTWUxMjM0NTY3OA in the header')).toBe(`send bearer ${R} in the header`);
  });

  it('keeps the user and hides the password of scheme://user:pass@host', () => {
    expect(redactSecrets('postgres://admin:hunter2@db.example.com:5432/app')).toBe(`postgres://admin:${R}@db.example.com:5432/app`);
    expect(redactSecrets('git clone https://oauth2:glsecret99@gitlab.example.com/g/r.git')).toBe(
      `git clone https://oauth2:${R}@gitlab.example.com/g/r.git`,
    );
    expect(redactSecrets('redis://:s3cret@localhost:6379')).toBe(`redis://:${R}@localhost:6379`);
  });

  it('redacts PEM private key blocks, closed or not', () => {
    const body = Array.from({ length: 5 }, () => rnd(64)).join('\n');
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`;
    expect(redactSecrets(`key:\n${pem}\ndone`)).toBe(`key:\n${R}\ndone`);
    expect(redactSecrets(`-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n-----END OPENSSH PRIVATE KEY-----`)).toBe(R);
    expect(redactSecrets(`-----BEGIN PRIVATE KEY-----\n${body}`)).toBe(R);
    expect(redactSecrets(`-----BEGIN PGP PRIVATE KEY BLOCK-----\n${body}\n-----END PGP PRIVATE KEY BLOCK-----\nok`)).toBe(`${R}\nok`);
  });

  it('leaves public keys and certificates alone', () => {
    const cert = `-----BEGIN CERTIFICATE-----\nMIIB${rnd(20)}\n-----END CERTIFICATE-----`;
    expect(redactSecrets(cert)).toBe(cert);
  });
});

describe('redactSecrets: secret-named assignments', () => {
  it('redacts .env lines and shell exports', () => {
    const env = ['OPENAI_API_KEY=abc123', 'DB_PASSWORD="correct horse"', "export GITHUB_TOKEN='t0k3n'", 'SMTP_PASS=xyz', 'CLIENT_SECRET=cs-1'].join('\n');
    expect(redactSecrets(env)).toBe(
      [`OPENAI_API_KEY=${R}`, `DB_PASSWORD="${R}"`, `export GITHUB_TOKEN='${R}'`, `SMTP_PASS=${R}`, `CLIENT_SECRET=${R}`].join('\n'),
    );
    expect(redactSecrets('PASSWORD=letmein PASSWD=x2')).toBe(`PASSWORD=${R} PASSWD=${R}`);
  });

  it('redacts the AWS secret access key in credentials files', () => {
    expect(redactSecrets('aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLE')).toBe(`aws_secret_access_key = ${R}`);
  });

  it('redacts JSON and YAML values, JSON inside strings too', () => {
    expect(redactSecrets('{"apiKey": "abc", "name": "demo"}')).toBe(`{"apiKey": "${R}", "name": "demo"}`);
    expect(redactSecrets('{"client_secret":"a\\"b"}')).toBe(`{"client_secret":"${R}"}`);
    expect(redactSecrets('auth:\n  token: ab12cd34\n  user: me')).toBe(`auth:\n  token: ${R}\n  user: me`);
    expect(redactSecrets('{\\"password\\": \\"p4ss\\"}')).toBe(`{\\"password\\": \\"${R}\\"}`);
    expect(redactSecrets('x-api-key: 0123abcd')).toBe(`x-api-key: ${R}`);
    expect(redactSecrets('db:\n  password: secret\n  user: app')).toBe(`db:\n  password: ${R}\n  user: app`);
    expect(redactSecrets('token: Abc')).toBe(`token: ${R}`);
  });

  it('redacts CLI flags and curl -u', () => {
    expect(redactSecrets('mysql --password hunter2 -u root')).toBe(`mysql --password ${R} -u root`);
    expect(redactSecrets('tool --api-key "k 1" --token=abc9')).toBe(`tool --api-key "${R}" --token=${R}`);
    expect(redactSecrets('curl -u alice:wonderland https://x')).toBe(`curl -u alice:${R} https://x`);
  });

  it('knows which names are secret', () => {
    for (const n of ['API_KEY', 'apiKey', 'OPENAI_API_KEY', 'x-api-key', 'clientSecret', 'GITHUB_TOKEN', 'password', 'DB_PASS', 'db_pwd',
      'passphrase', 'SECRET_KEY_BASE', 'aws_secret_access_key', 'accessToken', 'token', 'secret', 'Authorization']) {
      expect(isSecretName(n), n).toBe(true);
    }
    for (const n of ['key', 'primaryKey', 'public_key', 'sort_key', 'cacheKey', 'max_tokens', 'MAX_TOKEN', 'eos_token', 'keyboard',
      'AWS_ACCESS_KEY_ID', 'pass', 'pwd', 'PWD', 'tokenizer', 'password_hash', 'passwordField', 'name']) {
      expect(isSecretName(n), n).toBe(false);
    }
  });
});

describe('redactSecrets: false-positive guards', () => {
  const keep = [
    'commit 3f786850e387550fdab836ed7e6dc881de23001b on main',
    'id 123e4567-e89b-12d3-a456-426614174000',
    'edit /home/dev/projects/demo/src/task-manager-abcdefghijklmnopqrstuvwxyz.ts',
    'the task-abcdefghijklmnopqrstuvwxyz0123 ran',
    'kiosk-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
    'sk-learn is a library; sk-test is a placeholder',
    'Reset your password and try again.',
    'Enter your password: then press enter',
    'The password field is required; a strong password helps.',
    'const apiKey = config.apiKey;',
    'password = getPassword()',
    'if (password === "") return;',
    'interface User { password: string; token?: string }',
    'type T = { token: Token; apiKey: ApiKey | null }',
    'function f(secret: Secret, password: Password) {}',
    'export OPENAI_API_KEY=$OPENAI_API_KEY',
    'API_KEY=${API_KEY}',
    'the bearer of bad news; bearer authentication is common',
    'eos_token: "</s>"\nmax_tokens: 4096\nprimary_key: id',
    'http://localhost:8080/path?x=1',
    'git@github.com:owner/repo.git',
    'hf_hub_download and ghp_ alone',
    'AKIA is a prefix, AKIAshort too',
    'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  ];
  for (const text of keep) {
    it(`keeps: ${text.slice(0, 50)}`, () => {
      expect(redactSecrets(text)).toBe(text);
    });
  }
});

describe('redactSecrets: linear time', () => {
  it('handles a 1 MB string of mixed content', () => {
    const chunk = `line ${rnd(20)} key=value path/to/file.ts "x": "y" https://example.com/a <b> sk- AKIA -----BEGIN\n`;
    const big = chunk.repeat(Math.ceil((1024 * 1024) / chunk.length));
    const t = Date.now();
    const out = redactSecrets(big);
    expect(out.length).toBeGreaterThan(1000 * 1000);
    expect(Date.now() - t).toBeLessThan(10_000);
  });

  it('handles adversarial runs without blowing up', () => {
    const inputs = [
      'a'.repeat(1024 * 1024),
      '"'.repeat(512 * 1024),
      'x: "'.repeat(256 * 1024),
      'sk-'.repeat(300 * 1000),
      'http://'.repeat(150 * 1000),
      `${'A'.repeat(100)}=`.repeat(10_000),
      `-----BEGIN PRIVATE KEY-----${'x'.repeat(100)}`.repeat(8000),
      'Authorization: '.repeat(60_000),
    ];
    for (const s of inputs) {
      const t = Date.now();
      redactSecrets(s);
      expect(Date.now() - t).toBeLessThan(10_000);
    }
  });
});
