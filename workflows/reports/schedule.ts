import type { ScheduleOptionsStartWorkflowAction, ScheduleSpecDescription } from '@temporalio/client';
import { startMetadata, type WorkflowKind } from '../../src/temporal/search-attributes';
import { deleteSchedule, ensureSchedule, temporal } from '../client';
import type { MonthlyMailInput, MonthlyMailResult } from './mail-run';

/**
 * The Temporal Schedules of the monthly mails, on the 1st of every month at `hourUtc` (06:00 UTC by default),
 * overlapping runs skipped, a missed run (Temporal down at that hour) still started within a day: `monthly-reports`
 * starts `sendMonthlyReports` (each organisation's report to its owners), `monthly-scan-reports` starts
 * `sendMonthlyScanReports` (each scan's report to its agency's owners). Every API and worker process brings both in
 * line at boot.
 */
export interface MonthlyReportScheduleSettings {
  hourUtc: number;
  /** Appended to the schedule ids: tests sharing one dev server scope them by task queue. */
  idScope?: string;
  /** Page size and mails in flight of both schedules' runs. */
  input?: ScheduledInput;
}

/** What a schedule's run is given: never a month (the run mails the month before its start) nor a place. */
type ScheduledInput = Pick<MonthlyMailInput<unknown>, 'pageSize' | 'concurrency'>;
/** `sendMonthlyReports` and `sendMonthlyScanReports` as their schedules start them. */
type MonthlyMailWorkflow = (input?: ScheduledInput) => Promise<MonthlyMailResult>;

let settings: MonthlyReportScheduleSettings = { hourUtc: 6 };

export function configureMonthlyReports(next: Partial<MonthlyReportScheduleSettings>): void {
  settings = { ...settings, ...next };
}

export const MONTHLY_REPORT_SCHEDULE = 'monthly-reports' satisfies WorkflowKind;
export const MONTHLY_SCAN_REPORT_SCHEDULE = 'monthly-scan-reports' satisfies WorkflowKind;

const calendar = () => ({ dayOfMonth: 1, hour: settings.hourUtc, minute: 0, second: 0, comment: 'the 1st of each month' });

const atTheHour = (spec: ScheduleSpecDescription): boolean => {
  const calendars = spec.calendars ?? [];
  const hours = calendars.length === 1 ? calendars[0].hour : undefined;
  return calendars.length === 1 && Array.isArray(hours) && hours.length === 1 && hours[0].start === settings.hourUtc && !spec.intervals?.length;
};

/** One monthly schedule (its id is also its runs' `RgKind`): the id (scoped), its ensure at boot and its removal. */
function monthlySchedule(id: WorkflowKind, workflowType: 'sendMonthlyReports' | 'sendMonthlyScanReports', summary: string) {
  const scheduleId = (): string => (settings.idScope ? `${id}:${settings.idScope}` : id);
  const action = (taskQueue: string): ScheduleOptionsStartWorkflowAction<MonthlyMailWorkflow> => ({
    type: 'startWorkflow',
    workflowType,
    workflowId: scheduleId(),
    taskQueue,
    args: [settings.input ?? {}],
    ...startMetadata({ kind: id, businessId: scheduleId() }, summary),
  });
  return {
    scheduleId,
    /** `created`, `updated` (another hour or task queue was configured) or `unchanged`. */
    ensure: (): Promise<'created' | 'updated' | 'unchanged'> =>
      ensureSchedule<MonthlyMailWorkflow>(
        { scheduleId: scheduleId(), spec: { calendars: [calendar()] }, action: action(temporal().settings.taskQueue), policies: { overlap: 'SKIP', catchupWindow: '1 day' } },
        atTheHour,
      ),
    remove: async (): Promise<void> => {
      await deleteSchedule(scheduleId());
    },
  };
}

export const { scheduleId: monthlyReportScheduleId, ensure: ensureMonthlyReportSchedule, remove: removeMonthlyReportSchedule } = monthlySchedule(
  MONTHLY_REPORT_SCHEDULE,
  'sendMonthlyReports',
  "Monthly reports: mail last month's report to the owners of every organisation",
);
export const { scheduleId: monthlyScanReportScheduleId, ensure: ensureMonthlyScanReportSchedule, remove: removeMonthlyScanReportSchedule } = monthlySchedule(
  MONTHLY_SCAN_REPORT_SCHEDULE,
  'sendMonthlyScanReports',
  "Monthly scan reports: mail last month's report of every scan to its agency's owners",
);
