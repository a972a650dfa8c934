import { Writable } from 'node:stream';
import { runInNewContext } from 'node:vm';
import pino, { type Logger } from 'pino';
import { DataTypes, DatabaseError, Sequelize } from 'sequelize';
import { dropDatabase, ensureDatabase } from '../../src/db/connection';
import { LOG_REDACTION } from '../../src/observability/log-redaction';
import { temporalSdkLogger } from '../../src/observability/temporal-metrics';
import { closePlatformMailers, sendSafely } from '../../src/providers/smtp/platform-mailer';
import { databaseUrlFor } from '../support/env';
import { startSmtpServer } from '../support/providers/smtp';

/**
 * The worker's logs never hold what a failed statement carried. The Temporal SDK logs `warn('Activity failed',
 * { error })` on every failed attempt; a Sequelize error holds the statement with its values written in (`sql`,
 * `parent.sql`, `original.sql`) and the bound `parameters`: reviewers' names, e-mail addresses, tokens. The SDK logger
 * writes an error as its type, message, stack and code only; LOG_REDACTION drops `sql`, `parameters`, `parent` and
 * `original` from an error logged whole. A mail that could not be sent is logged with its recipient's domain only.
 */

const EMAIL = 'grace.hopper.secret@reviewers.example.org';
const NAME = 'Grace Brewster Murray Hopper';

/** A pino logger whose lines are kept in memory (parsed), built as the product builds its loggers. */
function captured(opts: { redact?: boolean } = {}): { logger: Logger; lines: Array<Record<string, unknown>>; raw: string[] } {
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      raw.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level: 'info', base: { service: 'reviewgrid' }, ...(opts.redact === false ? {} : { redact: LOG_REDACTION }) }, stream);
  return {
    logger,
    raw,
    get lines() {
      return raw.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line) as Record<string, unknown>);
    },
  };
}

describe('SDK logger: errors of failed statements', () => {
  const url = databaseUrlFor(`sdklog_${process.env.JEST_WORKER_ID ?? '1'}`);
  let sequelize: Sequelize;
  /** A failed INSERT with its values written into the SQL (replacements), and one with bound parameters (a model). */
  let inlined: DatabaseError;
  let bound: DatabaseError;

  beforeAll(async () => {
    await dropDatabase(url);
    await ensureDatabase(url);
    sequelize = new Sequelize(url, { dialect: 'mysql', logging: false });
    await sequelize.query('CREATE TABLE people (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(10) NOT NULL)');
    const Person = sequelize.define('Person', { name: DataTypes.STRING(100), email: DataTypes.STRING(10) }, { tableName: 'people', timestamps: false });
    inlined = await sequelize.query('INSERT INTO people (name, email) VALUES (?, ?)', { replacements: [NAME, EMAIL] }).then(
      () => {
        throw new Error('the INSERT was expected to fail');
      },
      (e: DatabaseError) => e,
    );
    bound = await Person.create({ name: NAME, email: EMAIL }).then(
      () => {
        throw new Error('the INSERT was expected to fail');
      },
      (e: DatabaseError) => e,
    );
  }, 60_000);
  afterAll(async () => {
    await sequelize?.close();
    await dropDatabase(url);
  });

  it('the errors carry the values (what the logger must leave out)', () => {
    expect(inlined).toBeInstanceOf(DatabaseError);
    expect(inlined.sql).toContain(EMAIL);
    expect((inlined.parent as Error & { sql?: string }).sql).toContain(EMAIL);
    expect(bound).toBeInstanceOf(DatabaseError);
    expect(JSON.stringify(bound.parameters)).toContain(EMAIL);
    // pino's own error serializer, which the SDK logger used, copies all of it.
    expect(JSON.stringify(pino.stdSerializers.err(inlined))).toContain(EMAIL);
  });

  for (const redact of [true, false]) {
    it(`'Activity failed' is written with the error's type, message and code only${redact ? '' : ' (even without LOG_REDACTION)'}`, () => {
      const out = captured({ redact });
      const sdk = temporalSdkLogger(out.logger);
      sdk.warn('Activity failed', { error: inlined, durationMs: 12 });
      sdk.warn('Activity failed', { error: bound, durationMs: 3 });
      sdk.error('Worker failed', { err: inlined });
      sdk.warn('Workflow failed', { failure: { error: bound, attempt: 2 }, errors: [inlined] });
      sdk.warn('Failed to process Workflow Activation', { error: Object.assign(new Error('Activity task failed'), { cause: inlined }) });

      const all = out.raw.join('');
      expect(all).not.toContain(EMAIL);
      expect(all).not.toContain(NAME);
      expect(all).not.toMatch(/INSERT INTO/i);
      expect(all).not.toContain('"sql"');
      expect(all).not.toContain('"parameters"');

      const lines = out.lines;
      expect(lines).toHaveLength(5);
      for (const line of lines) expect(line).toMatchObject({ sdk: true, service: 'reviewgrid' });
      const error = lines[0].error as Record<string, unknown>;
      expect(Object.keys(error).sort()).toEqual(['code', 'message', 'stack', 'type']);
      expect(error).toMatchObject({ type: 'SequelizeDatabaseError', code: 'ER_DATA_TOO_LONG' });
      expect(error.message).toMatch(/Data too long for column 'email'/);
      expect(lines[0]).toMatchObject({ msg: 'Activity failed', level: 40, durationMs: 12 });
      expect(lines[1].error).toMatchObject({ type: 'SequelizeDatabaseError', code: 'ER_DATA_TOO_LONG', message: expect.stringMatching(/Data too long/) });
      expect(lines[2].err).toMatchObject({ type: 'SequelizeDatabaseError', code: 'ER_DATA_TOO_LONG' });
      expect(lines[3].failure).toMatchObject({ error: { type: 'SequelizeDatabaseError' }, attempt: 2 });
      expect(lines[3].errors).toEqual([expect.objectContaining({ type: 'SequelizeDatabaseError', code: 'ER_DATA_TOO_LONG' })]);
      expect(lines[4].error).toMatchObject({ type: 'Error', message: 'Activity task failed', cause: { type: 'SequelizeDatabaseError', code: 'ER_DATA_TOO_LONG' } });
    });
  }

  it('an error made like Sequelize makes it (parent, original, sql, parameters) and one from another realm', () => {
    const driver = Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), {
      code: 'ER_LOCK_DEADLOCK',
      errno: 1213,
      sql: `UPDATE contacts SET email = '${EMAIL}' WHERE id = 7`,
    });
    const constructed = new DatabaseError(driver as never);
    Object.assign(constructed, { parameters: { email: EMAIL, token: 'tok_live_abcdef' } });
    // A workflow's error comes from its sandbox (a vm context): `instanceof Error` is false there.
    const ForeignError = runInNewContext('Error') as ErrorConstructor;
    const foreign = new ForeignError('from the sandbox');
    expect(foreign instanceof Error).toBe(false);
    Object.assign(foreign, { sql: `SELECT '${EMAIL}'` });
    // A code that is not a constant name is left out.
    const odd = Object.assign(new Error('odd'), { code: `dup ${EMAIL}` });

    const out = captured();
    const sdk = temporalSdkLogger(out.logger);
    sdk.warn('Activity failed', { error: constructed });
    sdk.warn('Workflow failed', { error: foreign });
    sdk.warn('Activity failed', { error: odd });
    // A decoded Temporal Failure (not an Error): its message and stack trace, not its details' payloads.
    sdk.warn('Workflow failed', { failure: { message: 'boom', stackTrace: 'at x', applicationFailureInfo: { details: { payloads: [{ data: EMAIL }] } } } });

    expect(out.raw.join('')).not.toContain(EMAIL);
    expect(out.raw.join('')).not.toContain('tok_live_abcdef');
    const [a, b, c] = out.lines;
    expect(a.error).toMatchObject({ type: 'SequelizeDatabaseError', code: 'ER_LOCK_DEADLOCK', message: expect.stringMatching(/^Deadlock found/) });
    expect(b.error).toMatchObject({ type: 'Error', message: 'from the sandbox' });
    expect(c.error).toEqual({ type: 'Error', message: 'odd', stack: expect.any(String) });
    expect(out.lines[3].failure).toEqual({ type: 'object', message: 'boom', stack: 'at x' });
  });

  it('LOG_REDACTION drops sql, parameters, parent and original from an error logged whole', () => {
    const out = captured();
    out.logger.error({ err: inlined }, 'logged whole');
    out.logger.error({ error: { nested: bound } }, 'logged whole, one level down');
    const all = out.raw.join('');
    expect(all).not.toContain(EMAIL);
    expect(all).not.toMatch(/INSERT INTO/i);
    const [first] = out.lines;
    expect(first.err).toMatchObject({ type: 'DatabaseError', message: expect.stringMatching(/Data too long/) });
  });
});

describe('sendSafely', () => {
  afterAll(() => closePlatformMailers());

  it('logs the recipient domain of a refused mail, not the address (nor the address in the server answer)', async () => {
    const refusing = await startSmtpServer({ reject: true });
    const previous = process.env.SMTP_URL;
    process.env.SMTP_URL = refusing.url;
    try {
      const out = captured();
      const sent = await sendSafely({ to: EMAIL, subject: 'Your account', text: `Hello ${NAME}`, kind: 'customer-invite' }, out.logger);
      expect(sent).toBeNull();
      expect(out.raw.join('')).not.toContain(EMAIL);
      expect(out.raw.join('')).not.toContain('grace.hopper.secret');
      const [line] = out.lines;
      expect(line).toMatchObject({ msg: 'mail could not be sent', level: 50, kind: 'customer-invite', toDomain: 'reviewers.example.org', responseCode: 550 });
      expect(line.to).toBeUndefined();
      expect(line.error).toMatch(/@reviewers\.example\.org/);
    } finally {
      if (previous === undefined) delete process.env.SMTP_URL;
      else process.env.SMTP_URL = previous;
      closePlatformMailers();
      await refusing.close();
    }
  });
});
