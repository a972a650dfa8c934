/**
 * Records (and skips, answering false) every regular-expression test run on a string longer than `minLength` that holds
 * `marker`, until `restore()`: a test of a length check made before a slow pattern answers at once on code that runs
 * the pattern first, and `runs` says which pattern saw the value (test/security/email-length.test.ts,
 * test/services/order-email.test.ts).
 */
export function recordPatternRuns(marker: string, minLength: number): { runs: string[]; restore: () => void } {
  const realTest = RegExp.prototype.test;
  const runs: string[] = [];
  const spy = jest.spyOn(RegExp.prototype, 'test').mockImplementation(function (this: RegExp, s: string) {
    if (typeof s === 'string' && s.length > minLength && s.includes(marker)) {
      runs.push(this.source);
      return false;
    }
    return realTest.call(this, s);
  });
  return { runs, restore: () => spy.mockRestore() };
}
