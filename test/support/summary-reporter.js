/** Prints the plain closing line CI reads: "N passed, N failed" (", N skipped" when some were). */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`;
    process.stdout.write(`\nTests: ${line}\n`);
  }
}
module.exports = SummaryReporter;
