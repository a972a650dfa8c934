/**
 * Prints the plain closing line CI reads: "N passed, N failed" (", N skipped" when some were), after the slowest test
 * files of the run with their wall time, so a CI run that grows past its budget says where the time went.
 */
const SLOWEST = 15;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const files = results.testResults
      .map((file) => ({ path: file.testFilePath.replace(`${process.cwd()}/`, ''), ms: file.perfStats.end - file.perfStats.start }))
      .filter((file) => Number.isFinite(file.ms))
      .sort((a, b) => b.ms - a.ms);
    if (files.length > 1) {
      const total = files.reduce((sum, file) => sum + file.ms, 0);
      process.stdout.write(`\nSlowest test files (of ${files.length}, ${Math.round(total / 1000)} s in all):\n`);
      for (const file of files.slice(0, SLOWEST)) process.stdout.write(`${String(Math.round(file.ms / 1000)).padStart(6)} s  ${file.path}\n`);
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`;
    process.stdout.write(`\nTests: ${line}\n`);
  }
}
module.exports = SummaryReporter;
