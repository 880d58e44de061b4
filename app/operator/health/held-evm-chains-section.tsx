import { getTranslations } from 'next-intl/server';
import { ConsoleActionForm } from '@/components/operator/console-action-form';
import { LocalTime } from '@/components/i18n/local-time';
import { Section } from '@/components/operator/ui';
import { heldEvmChains } from '@/lib/channels/usdt/evm/resume-evm-chain';
import { getDb } from '@/lib/db/client';
import { resumeEvmChainAction } from './actions';

/** The EVM chains the watcher holds after a re-org below its cursor, each with the form that resumes it. */
export async function HeldEvmChainsSection() {
  const [held, t] = await Promise.all([heldEvmChains(getDb()), getTranslations('console.operatorActions')]);
  if (held.length === 0) return null;
  return (
    <Section id="held-chains-heading" title={t('heldTitle')}>
      <p className="m-0 mb-3 text-sm text-gray-700">{t('heldIntro')}</p>
      <ul className="m-0 flex list-none flex-col gap-4 p-0">
        {held.map((chain) => (
          <li key={chain.chain} data-testid={`held-${chain.chain}`}>
            <p className="m-0 mb-2 text-sm">
              {t.rich('heldChain', {
                chain: chain.chain,
                block: chain.blockNumber,
                since: () => <LocalTime value={chain.reorgDetectedAt} />,
                hash: () => <code className="text-xs break-all">{chain.blockHash}</code>,
                node: () => <code className="text-xs break-all">{chain.reorgNodeHash ?? '—'}</code>,
              })}
            </p>
            <ConsoleActionForm
              id={`resume-${chain.chain}`}
              label={t('resumeLabel', { chain: chain.chain })}
              submitLabel={t('resumeButton', { chain: chain.chain })}
              fields={[
                { name: 'afterBlock', label: t('afterBlock'), hint: t('afterBlockHint'), inputMode: 'numeric' },
                { name: 'reason', label: t('reason') },
              ]}
              action={resumeEvmChainAction.bind(null, chain.chain)}
            />
          </li>
        ))}
      </ul>
    </Section>
  );
}
