// Generates src/generated/{customer,agency}.ts from the committed OpenAPI documents (schema/openapi/*.json) with
// openapi-typescript. `--check` writes nothing and exits 1 when a generated file differs from what the documents give,
// so CI fails on types that fell behind the API (run `npm run generate` in clients/typescript, or
// `npm run client:generate` at the root, after `npm run openapi:emit`).
import { readFile, writeFile } from 'node:fs/promises';
import process from 'node:process';
import { URL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

const SOURCES = {
  customer: new URL('../../../schema/openapi/customer.json', import.meta.url),
  agency: new URL('../../../schema/openapi/agency.json', import.meta.url),
};
const check = process.argv.includes('--check');

async function generated(source) {
  // Parsed here rather than passed as a URL so that the output never depends on where the repository lives.
  const document = JSON.parse(await readFile(source, 'utf8'));
  const ast = await openapiTS(document, { silent: true });
  return `${COMMENT_HEADER}// Source: schema/openapi/${source.pathname.split('/').pop()}\n\n${astToString(ast)}`;
}

const stale = [];
for (const [name, source] of Object.entries(SOURCES)) {
  const target = new URL(`../src/generated/${name}.ts`, import.meta.url);
  const text = await generated(source);
  if (!check) {
    await writeFile(target, text);
    process.stdout.write(`wrote clients/typescript/src/generated/${name}.ts\n`);
    continue;
  }
  const current = await readFile(target, 'utf8').catch(() => null);
  if (current !== text) stale.push(`clients/typescript/src/generated/${name}.ts`);
}
if (stale.length > 0) {
  process.stderr.write(`The typed client is stale against schema/openapi: ${stale.join(', ')}. Run \`npm run client:generate\` and commit the result.\n`);
  process.exit(1);
}
if (check) process.stdout.write('client types match schema/openapi\n');
