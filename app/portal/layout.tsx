import type { ReactNode } from 'react';
import { getTranslations } from 'next-intl/server';
import { AreaMessagesProvider } from '@/components/i18n/area-messages-provider';
import './portal.css';

export async function generateMetadata() {
  const t = await getTranslations('portal');
  return { title: t('metaTitle') };
}

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const t = await getTranslations('common');
  return (
    <AreaMessagesProvider areas={['common', 'portal']}>
      <div className="portal">
        <a className="skip-link" href="#main">
          {t('skipToContent')}
        </a>
        {children}
      </div>
    </AreaMessagesProvider>
  );
}
