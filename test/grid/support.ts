/** The `reason` of the domain error `f` throws (undefined when it throws none). */
export const reasonOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return (e as { reason?: string }).reason;
  }
  return undefined;
};
