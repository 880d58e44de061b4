import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { LocalTime } from '@/components/i18n/local-time';

/**
 * On every back-office page, from the next sign-in after an operator's reset of the account's lost authenticator app
 * until a new one is set up (the time comes with the session's context, read on every page anyway): the owner is told what happened and where to set it up (the account page says why).
 */
export async function SecondFactorResetNotice({ resetAt, accountPage }: { resetAt: Date | null; accountPage: string }) {
  if (!resetAt) return null;
  const t = await getTranslations('common.secondFactorReset');
  return (
    <p role="status" data-testid="second-factor-reset-notice" className="m-0 border-b border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-900">
      {t.rich('notice', {
        time: () => <LocalTime value={resetAt} />,
        link: (chunks) => (
          <Link href={accountPage} className="font-semibold text-amber-900 underline">
            {chunks}
          </Link>
        ),
      })}
    </p>
  );
}
