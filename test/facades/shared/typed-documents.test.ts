import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultOf } from '@graphql-typed-document-node/core';
import config from '../../../codegen';
import { SCAN_DETAIL_QUERY } from '../../../facades/shared/scans';

/**
 * The facades' GraphQL documents are typed from the schema (codegen.ts): a document that asks for a field the schema
 * does not have fails the generation (`npm run codegen`, `npm run codegen:check` in pretest), and a result field the
 * document did not select fails the type check.
 */
const ROOT = join(__dirname, '../../..');

describe('typed facade documents', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rg-codegen-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * Runs the codegen CLI (in a child process: it is ESM inside) with the project's configuration over one source file
   * holding `document`, into a scratch folder.
   */
  const generateFor = (name: string, document: string) => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, `import { graphql } from './graphql';\nexport const doc = graphql(\`${document}\`);\n`);
    const [target] = Object.values(config.generates);
    const configFile = join(dir, `${name}.codegen.json`);
    const scratch = { ...config, schema: join(ROOT, 'schema/schema.graphql'), documents: [file], generates: { [join(dir, name, '/')]: target } };
    writeFileSync(configFile, JSON.stringify(scratch));
    // NODE_ENV=test (set by Jest) makes the CLI print no task output, the validation errors included.
    const cli = join(ROOT, 'node_modules/@graphql-codegen/cli/cjs/bin.js');
    const run = spawnSync(process.execPath, [cli, '--config', configFile, '--verbose'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'development' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: run.status, output: `${run.stdout}${run.stderr}`, types: () => readFileSync(join(dir, name, 'graphql.ts'), 'utf8') };
  };

  it('generates a typed document for fields the schema has', () => {
    const run = generateFor('good', 'query Good($id: Int!) { review(id: $id) { id rating } }');
    expect(run.status).toBe(0);
    expect(run.types()).toContain('export type GoodQuery = { review: { id: number, rating: number } };');
  });

  it('fails on a field the schema does not have', () => {
    const run = generateFor('bad', 'query Bad($id: Int!) { review(id: $id) { id noSuchField } }');
    expect(run.status).not.toBe(0);
    expect(run.output).toMatch(/Cannot query field "noSuchField" on type "Review"/);
  });

  it('types the result by the selection: a field the document did not select does not type-check', () => {
    const check = (d: ResultOf<typeof SCAN_DETAIL_QUERY>) => {
      const uuid: string = d.scan.scan.uuid;
      // @ts-expect-error `distance` exists on ScanDetail's scan but the document does not select it.
      void d.scan.scan.distance;
      return uuid;
    };
    expect(typeof check).toBe('function');
  });
});
