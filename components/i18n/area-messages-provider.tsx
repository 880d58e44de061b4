import { NextIntlClientProvider } from 'next-intl';
import { getLocale } from 'next-intl/server';
import type { ReactNode } from 'react';
import { isLocale } from '@/lib/i18n/locales';
import { loadMessages, type MessageArea } from '@/lib/i18n/messages';

/** Hands client components the catalogues of the named areas only (never every catalogue). */
export async function AreaMessagesProvider({ areas, children }: { areas: readonly MessageArea[]; children: ReactNode }) {
  const locale = await getLocale();
  const messages = await loadMessages(isLocale(locale) ? locale : 'en', areas);
  return (
    <NextIntlClientProvider locale={locale} messages={messages}>
      {children}
    </NextIntlClientProvider>
  );
}
