'use client';

import { signOut } from 'next-auth/react';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useServerAction } from '@/components/back-office/use-server-action';
import { LocalTime } from '@/components/i18n/local-time';
import type { SessionDevice } from '@/lib/accounts/session-device';
import type { ActionResult } from './action-result';
import { FormMessage } from './field';
import { button, mono, note, table, tableWrap, td, th } from './styles';
import { useHydrated } from './use-hydrated';

export interface ShownSession {
  id: string;
  device: SessionDevice;
  network: string;
  signedInAt: Date;
  lastSeenAt: Date;
}

type EndSessions = (input: { sessionId: string } | { allButThis: true }) => Promise<ActionResult<{ ended: number; thisOne: boolean }>>;

/** The account's live sessions, this browser's marked, each with its end; and the end of all the others at once. */
export function AccountSessions({ sessions, currentId, endSessionsAction }: { sessions: ShownSession[]; currentId: string; endSessionsAction: EndSessions }) {
  const t = useTranslations('portal.account.sessions');
  const hydrated = useHydrated();
  const { pending, error, run } = useServerAction();
  const [done, setDone] = useState<string>();
  const others = sessions.filter((session) => session.id !== currentId).length;

  async function end(input: { sessionId: string } | { allButThis: true }) {
    setDone(undefined);
    const result = await run(() => endSessionsAction(input));
    if (!result.ok) return;
    if (result.data.thisOne) {
      await signOut({ redirect: false });
      // A full load, so that no signed-in page stays in the client router's cache.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign('/portal/sign-in');
      return;
    }
    setDone(t('ended', { count: result.data.ended }));
  }

  // Products are shown by their own names, but for those that have one in the reader's language (微信, 支付宝).
  const named = (name: string) => (t.has(`names.${name}`) ? t(`names.${name}`) : name);
  const deviceText = ({ browser, system }: SessionDevice) =>
    browser && system ? t('deviceOn', { browser: named(browser), system: named(system) }) : browser || system ? named((browser ?? system)!) : t('unknownDevice');

  return (
    <>
      <FormMessage error={error} success={done} />
      <div className={tableWrap} tabIndex={0} role="region" aria-labelledby="sessions-heading">
        <table className={table}>
          <thead>
            <tr>
              <th className={th}>{t('device')}</th>
              <th className={th}>{t('network')}</th>
              <th className={th}>{t('signedIn')}</th>
              <th className={th}>{t('lastSeen')}</th>
              {/* Positioned, so that the visually hidden heading stays inside the scrolling table: one absolutely placed
                  outside it would widen the whole page on a phone. */}
              <th className={`${th} relative`}>
                <span className="sr-only">{t('actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => {
              const current = session.id === currentId;
              return (
                <tr key={session.id} data-testid={current ? 'session-current' : 'session-other'}>
                  <td className={td}>
                    {deviceText(session.device)}
                    {current ? <strong className="ml-2 text-teal-800">{t('thisSession')}</strong> : null}
                  </td>
                  <td className={`${td} ${mono}`}>{session.network}</td>
                  <td className={td}>
                    <LocalTime value={session.signedInAt} />
                  </td>
                  <td className={td}>
                    <LocalTime value={session.lastSeenAt} />
                  </td>
                  <td className={td}>
                    <button
                      type="button"
                      className={button('secondary', 'sm')}
                      disabled={pending || !hydrated}
                      aria-label={current ? t('endThisLabel') : t('endLabel', { device: deviceText(session.device), network: session.network })}
                      onClick={() => end({ sessionId: session.id })}
                    >
                      {current ? t('endThis') : t('end')}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className={`${note} mt-3 mb-2`}>{t('othersCount', { count: others })}</p>
      <button type="button" className={button('danger')} disabled={pending || !hydrated || others === 0} onClick={() => end({ allButThis: true })}>
        {t('endOthers')}
      </button>
    </>
  );
}
