import type { ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import { startMetadata } from '../../src/temporal/search-attributes';
import { deleteSchedule, ensureSchedule, temporal } from '../client';
import type { MonthlyReportsInput, sendMonthlyReports } from './monthly.workflow';

/**
 * The Temporal Schedule `monthly-reports`: `sendMonthlyReports` on the 1st of every month at `hourUtc` (06:00 UTC by
 * default), overlapping runs skipped, a missed run (Temporal down at that hour) still started within a day. Every API
 * and worker process brings it in line at boot.
 */
export interface MonthlyReportScheduleSettings {
  hourUtc: number;
  /** Appended to the schedule id: tests sharing one dev server scope it by task queue. */
  idScope?: string;
  input?: MonthlyReportsInput;
}

let settings: MonthlyReportScheduleSettings = { hourUtc: 6 };

export function configureMonthlyReports(next: Partial<MonthlyReportScheduleSettings>): void {
  settings = { ...settings, ...next };
}

export const MONTHLY_REPORT_SCHEDULE = 'monthly-reports';
export const monthlyReportScheduleId = (): string => (settings.idScope ? `${MONTHLY_REPORT_SCHEDULE}:${settings.idScope}` : MONTHLY_REPORT_SCHEDULE);

const calendar = () => ({ dayOfMonth: 1, hour: settings.hourUtc, minute: 0, second: 0, comment: 'the 1st of each month' });

function action(taskQueue: string): ScheduleOptionsStartWorkflowAction<typeof sendMonthlyReports> {
  return {
    type: 'startWorkflow',
    workflowType: 'sendMonthlyReports',
    workflowId: monthlyReportScheduleId(),
    taskQueue,
    args: [settings.input ?? {}],
    ...startMetadata({ kind: 'monthly-reports', businessId: monthlyReportScheduleId() }, "Monthly reports: mail last month's report to the owners of every organisation"),
  };
}

/** `created`, `updated` (another hour or task queue was configured) or `unchanged`. */
export async function ensureMonthlyReportSchedule(): Promise<'created' | 'updated' | 'unchanged'> {
  return ensureSchedule(
    {
      scheduleId: monthlyReportScheduleId(),
      spec: { calendars: [calendar()] },
      action: action(temporal().settings.taskQueue),
      policies: { overlap: 'SKIP', catchupWindow: '1 day' },
    },
    (spec) => {
      const calendars = spec.calendars ?? [];
      const hours = calendars.length === 1 ? calendars[0].hour : undefined;
      return calendars.length === 1 && Array.isArray(hours) && hours.length === 1 && hours[0].start === settings.hourUtc && !spec.intervals?.length;
    },
  );
}

export async function removeMonthlyReportSchedule(): Promise<void> {
  await deleteSchedule(monthlyReportScheduleId());
}
