/** Times in the portal are shown in UTC, to the second, with the zone named. */
export function formatTime(date: Date | null | undefined): string {
  if (!date) return '—';
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending · 待支付',
  paid: 'Paid · 已支付',
  closed: 'Closed · 已关闭',
};
