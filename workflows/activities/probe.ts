/** The engine probe's one activity: nothing to do, so what it measures is the engine. */
export function createProbeActivities() {
  return {
    async probe(): Promise<void> {},
  };
}

export type ProbeActivities = ReturnType<typeof createProbeActivities>;
