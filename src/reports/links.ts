/**
 * The path of a public scan report (`/reports/scans/{uuid}`, its PDF with `.pdf`) showing one keyword and snapshot:
 * the one builder of the page's own links (facades/pages/report.views.tsx) and of the report links the scan services
 * hand out (`report_url`, GraphQL `scanReport { htmlUrl pdfUrl }`).
 */
export function scanReportPath(uuid: string, q: { keyword?: string; snapshotAt?: Date | null } = {}, format: 'html' | 'pdf' = 'html'): string {
  const params = new URLSearchParams();
  if (q.keyword !== undefined) params.set('keyword', q.keyword);
  if (q.snapshotAt) params.set('snapshot_at', q.snapshotAt.toISOString());
  const query = params.toString();
  return `/reports/scans/${encodeURIComponent(uuid)}${format === 'pdf' ? '.pdf' : ''}${query ? `?${query}` : ''}`;
}
