import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { LocalTime } from '@/components/i18n/local-time';
import { pendingSecondFactorReset } from '@/lib/accounts/reset-second-factor';
import { getDb } from '@/lib/db/client';

/**
 * On every back-office page, from the next sign-in after an operator's reset of the account's lost authenticator app
 * until a new one is set up: the owner is told what happened and where to set it up (the account page says why).
 */
export async function SecondFactorResetNotice({ accountId, accountPage }: { accountId: number; accountPage: string }) {
  const reset = await pendingSecondFactorReset(getDb(), accountId);
  if (!reset) return null;
  const t = await getTranslations('common.secondFactorReset');
  return (
    <p role="status" data-testid="second-factor-reset-notice" className="m-0 border-b border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-900">
      {t.rich('notice', {
        time: () => <LocalTime value={reset.at} />,
        link: (chunks) => (
          <Link href={accountPage} className="font-semibold text-amber-900 underline">
            {chunks}
          </Link>
        ),
      })}
    </p>
  );
}
