import { contractRecorder } from './contract';

/**
 * Every test file: after each test, the REST answers it received (through `useApp` or `serveApp`) must be the ones the
 * OpenAPI documents show (test/support/contract.ts).
 */
afterEach(() => {
  const violations = contractRecorder.take();
  if (violations.length) throw new Error(`REST answers that the OpenAPI documents do not show:\n${violations.join('\n')}`);
});
