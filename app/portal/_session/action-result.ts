import { PasswordRejected } from '@/lib/accounts/change-password';
import { PortalActionRefused, PortalNotFound } from '@/lib/portal/portal-errors';

export type ActionResult<T = undefined> = { ok: true; data: T } | { ok: false; message: string; fieldErrors?: Record<string, string> };

function minutesUntil(date: Date | undefined): number {
  return date ? Math.max(1, Math.ceil((date.getTime() - Date.now()) / 60_000)) : 15;
}

/** Maps the portal's domain errors to what the form shows; anything else is rethrown (a real failure). */
export function refusal(error: unknown): { ok: false; message: string; fieldErrors?: Record<string, string> } {
  if (error instanceof PasswordRejected) {
    if (error.reason === 'throttled') {
      return { ok: false, message: `Too many attempts. Try again in ${minutesUntil(error.retryAt)} min. / 尝试次数过多，请 ${minutesUntil(error.retryAt)} 分钟后再试。` };
    }
    return { ok: false, message: 'The password is not correct. / 密码不正确。', fieldErrors: { password: 'The password is not correct / 密码不正确' } };
  }
  if (error instanceof PortalNotFound) return { ok: false, message: 'Not found. / 未找到。' };
  if (error instanceof PortalActionRefused) return { ok: false, message: error.message };
  throw error;
}

/** zod issues to one message per field. */
export function fieldErrorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const name = String(issue.path[0] ?? 'form');
    errors[name] ??= issue.message;
  }
  return errors;
}
