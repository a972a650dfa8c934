import { stopMailThread } from '../../src/providers/smtp/mail-thread';
import { contractRecorder } from './contract';

/**
 * Every test file: after each test, the REST answers it received (through `useApp` or `serveApp`) must be the ones the
 * OpenAPI documents show (test/support/contract.ts).
 */
afterEach(() => {
  const violations = contractRecorder.take();
  if (violations.length) throw new Error(`REST answers that the OpenAPI documents do not show:\n${violations.join('\n')}`);
});

/**
 * Every test file: its mail thread (src/providers/smtp/mail-thread.ts), if it sent SMTP mail, ends with it; each file
 * has its own module registry, so a thread left running would stay, idle, for the rest of the Jest worker's files.
 */
afterAll(() => stopMailThread());
