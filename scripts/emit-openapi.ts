import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { openApiJson, openApiYaml, type Api } from '../facades/rest/openapi';

/**
 * Writes schema/openapi/{customer,agency}.{json,yaml} from the route records. With --check: fails when a committed copy
 * is stale, then lints both documents with Redocly CLI (zero errors allowed; see redocly.yaml).
 */
const dir = path.resolve(__dirname, '..', 'schema', 'openapi');
const files = (['customer', 'agency'] as Api[]).flatMap((api) => [
  { file: path.join(dir, `${api}.json`), text: openApiJson(api) },
  { file: path.join(dir, `${api}.yaml`), text: openApiYaml(api) },
]);

if (process.argv.includes('--check')) {
  const stale = files.filter((f) => !fs.existsSync(f.file) || fs.readFileSync(f.file, 'utf8') !== f.text);
  if (stale.length) {
    process.stderr.write(`${stale.map((f) => path.relative(process.cwd(), f.file)).join(', ')}: stale; run \`npm run openapi:emit\` and commit the result.\n`);
    process.exit(1);
  }
  process.stdout.write('schema/openapi is up to date.\n');
  const lint = spawnSync(
    process.execPath,
    [require.resolve('@redocly/cli/bin/cli.js'), 'lint', '--format=stylish', path.join(dir, 'customer.json'), path.join(dir, 'agency.json')],
    { stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
  );
  process.exit(lint.status ?? 1);
}
fs.mkdirSync(dir, { recursive: true });
for (const f of files) fs.writeFileSync(f.file, f.text);
process.stdout.write(`wrote ${files.map((f) => path.relative(process.cwd(), f.file)).join(', ')}\n`);
