import { useTranslations } from 'next-intl';
import Link from 'next/link';
import type { SignInLockout } from '@/lib/accounts/sign-in-lockouts';
import { LocalTime } from '@/components/i18n/local-time';
import type { OperatorActionResult } from './action-result';
import { ConsoleActionForm } from './console-action-form';
import { ConsoleActionOutcome } from './console-action-outcome';
import { Badge, cell, Empty, Section, Table } from './ui';

type UnlockAction = (email: unknown, values: Record<string, string>) => Promise<OperatorActionResult<{ done: string }>>;

/** The attention list's accounts locked by guessed passwords: what is refused, from where, and the unlock. */
export function SignInLockouts({ lockouts, unlockAction }: { lockouts: SignInLockout[]; unlockAction: UnlockAction }) {
  const t = useTranslations('console.attention');
  const actions = useTranslations('console.operatorActions');
  return (
    <Section id="sign-ins-heading" title={t('signIns', { count: lockouts.length })}>
      <p className="mt-0 mb-3 text-sm text-gray-600">{t('signInsIntro')}</p>
      <ConsoleActionOutcome>
        {lockouts.length === 0 ? (
          <Empty testId="no-sign-in-lockouts">{t('nothing')}</Empty>
        ) : (
          <Table label={t('signInsTable')} head={[t('account'), t('lock'), t('failedChecks'), t('networks'), t('actions')]}>
            {lockouts.map((lockout) => (
              <tr key={lockout.accountId} data-testid={`sign-in-lockout-${lockout.email}`}>
                <td className={cell}>
                  <span className="flex flex-col">
                    <span className="font-mono text-xs break-all">{lockout.email}</span>
                    <span className="text-xs text-gray-500">
                      {t(`roles.${lockout.role === 'operator' ? 'operator' : 'merchant'}`)}
                      {lockout.merchantAppId ? (
                        <>
                          {' · '}
                          <Link href={`/operator/merchants/${lockout.merchantAppId}`} className="font-mono text-teal-800 underline">
                            {lockout.merchantAppId}
                          </Link>
                        </>
                      ) : null}
                    </span>
                  </span>
                </td>
                <td className={cell}>
                  <ul className="m-0 flex list-none flex-col gap-1 p-0 text-xs">
                    {lockout.newNetworksLockedUntil ? (
                      <li>
                        <Badge tone="bad">{t.rich('lockNewNetworks', { time: () => <LocalTime value={lockout.newNetworksLockedUntil!} /> })}</Badge>
                      </li>
                    ) : null}
                    {lockout.networks
                      .filter((network) => network.lockedUntil)
                      .map((network) => (
                        <li key={network.network}>
                          <Badge tone="warn">{t.rich('lockNetwork', { network: network.network, time: () => <LocalTime value={network.lockedUntil!} /> })}</Badge>
                        </li>
                      ))}
                  </ul>
                </td>
                <td className={`${cell} font-mono`}>{lockout.total}</td>
                <td className={cell}>
                  <ul className="m-0 list-none p-0 font-mono text-xs">
                    {lockout.networks.map((network) => (
                      <li key={network.network}>{t('networkFailures', { network: network.network, failures: network.failures })}</li>
                    ))}
                  </ul>
                </td>
                <td className={cell}>
                  <ConsoleActionForm
                    id={`attention-unlock-${lockout.accountId}`}
                    label={actions('unlockLabel', { email: lockout.email })}
                    submitLabel={actions('unlockButton')}
                    fields={[{ name: 'reason', label: actions('reason') }]}
                    action={unlockAction.bind(null, lockout.email)}
                  />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </ConsoleActionOutcome>
    </Section>
  );
}
