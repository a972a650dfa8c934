import fs from 'node:fs';
import path from 'node:path';
import { webhooksGuideMarkdown } from '../src/http/webhooks-guide';

/**
 * Writes docs/webhooks-receiver.md from the guide that `/docs/webhooks` serves (src/http/webhooks-guide.ts);
 * test/http/docs-page.test.ts fails when the committed file differs. `--check` only compares.
 */
const FILE = path.resolve(__dirname, '..', ...(__dirname.includes(`${path.sep}dist${path.sep}`) || __dirname.endsWith(`${path.sep}dist${path.sep}scripts`) ? ['..'] : []), 'docs', 'webhooks-receiver.md');
const text = webhooksGuideMarkdown();
if (process.argv.includes('--check')) {
  const current = fs.existsSync(FILE) ? fs.readFileSync(FILE, 'utf8') : '';
  if (current !== text) {
    process.stderr.write('docs/webhooks-receiver.md is stale: run `npm run docs:webhooks`\n');
    process.exit(1);
  }
} else {
  fs.writeFileSync(FILE, text);
  process.stdout.write(`wrote ${path.relative(process.cwd(), FILE)}\n`);
}
