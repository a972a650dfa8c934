/**
 * The MariaDB driver's error code of a failed statement (`ER_LOCK_DEADLOCK`, `ER_DUP_ENTRY`): errors come wrapped by
 * Sequelize (the driver's on `parent`) or, from the multi-row statements of src/db/write.ts, as the driver raised them.
 */
export function driverErrorCode(e: unknown): string | undefined {
  return (e as { parent?: { code?: string } }).parent?.code ?? (e as { code?: string }).code;
}

/**
 * InnoDB chose the transaction as a deadlock's victim, or a statement waited past the lock timeout: either way the
 * transaction is rolled back once the error leaves it, and running it again is the remedy.
 */
export function isLockConflict(e: unknown): boolean {
  const code = driverErrorCode(e);
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT';
}
