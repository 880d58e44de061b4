import type { ReactNode } from 'react';
import { getTranslations } from 'next-intl/server';
import { AreaMessagesProvider } from '@/components/i18n/area-messages-provider';
import { SecondFactorResetNotice } from '@/components/back-office/second-factor-reset-notice';
import { OperatorNav } from '@/components/operator/operator-nav';
import { requireOperator } from './_session/require-operator';

export async function generateMetadata() {
  const t = await getTranslations('console');
  return { title: t('nav.title') };
}

/**
 * Every page below checks the session itself too (layouts are not re-run on client navigation), and sends an operator
 * who must still set up two-step sign-in to the account page, the one link the navigation then lists.
 */
export default async function OperatorLayout({ children }: { children: ReactNode }) {
  const operator = await requireOperator({ duringSecondFactorSetUp: true });
  const t = await getTranslations('common');
  return (
    <AreaMessagesProvider areas={['common', 'console']}>
      <div className="min-h-screen bg-gray-50 text-gray-900">
        <a href="#main" className="absolute -left-[999px] focus:top-2 focus:left-2 focus:z-10 focus:bg-white focus:p-2">
          {t('skipToContent')}
        </a>
        <OperatorNav email={operator.email} onlyAccount={operator.mustSetUpSecondFactor} />
        <SecondFactorResetNotice resetAt={operator.secondFactorResetAt} accountPage="/operator/account" />
        <main id="main" className="mx-auto max-w-7xl px-4 py-5">
          {children}
        </main>
      </div>
    </AreaMessagesProvider>
  );
}
