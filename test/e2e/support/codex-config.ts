/** A user's Codex config.toml as in the fixture README: a custom provider at the scripted Responses API, the project trusted. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeCodexUserConfig(home: string, project: string, baseUrl: string): string {
  const file = join(home, '.codex', 'config.toml');
  mkdirSync(join(home, '.codex'), { recursive: true });
  writeFileSync(file, `# my Codex settings
model = "mock-model"
model_provider = "local"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.local]
name = "local mock"
base_url = "${baseUrl}"
wire_api = "responses"
env_key = "MOCK_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[projects."${project}"]
trust_level = "trusted"
`);
  return file;
}
