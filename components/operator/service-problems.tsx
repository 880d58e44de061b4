import { getTranslations } from 'next-intl/server';
import { ErrorInWords } from '@/components/i18n/error-in-words';
import { LocalTime } from '@/components/i18n/local-time';
import { formatDuration, Section } from '@/components/operator/ui';
import type { ServiceProblem } from '@/lib/operator/service-problems';

/** The attention list's first section, shown only while the service's own background work is not running as it should. */
export async function ServiceProblems({ problems }: { problems: readonly ServiceProblem[] }) {
  if (problems.length === 0) return null;
  const [t, units] = await Promise.all([getTranslations('console.attention'), getTranslations('common.duration')]);
  return (
    <Section id="service-heading" title={t('service', { count: problems.length })}>
      <ul className="m-0 list-none space-y-2 p-0" aria-label={t('serviceTable')}>
        {problems.map((problem) => (
          <li
            key={problem.kind === 'stale_job' ? problem.job : problem.kind}
            className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900"
            data-testid={problem.kind === 'stale_job' ? `service-stale-${problem.job}` : 'service-watcher-behind'}
          >
            {problem.kind === 'stale_job' ? (
              <>
                {t.rich('staleJob', { job: () => <code>{problem.job}</code>, period: formatDuration(problem.staleAfterMs, units) })}
                {problem.lastSuccessAt ? <LocalTime value={problem.lastSuccessAt} /> : t('staleJobNever')}
                {problem.lastError ? <span className="mt-1 block text-xs break-words">{t.rich('staleJobError', { error: () => <ErrorInWords error={problem.lastError!} /> })}</span> : null}
              </>
            ) : (
              <>
                {t('watcherBehind', { lag: formatDuration(problem.lagMs, units), max: formatDuration(problem.maxLagMs, units) })} <LocalTime value={problem.cursorAt} />
              </>
            )}
          </li>
        ))}
      </ul>
      <p className="mt-2 text-xs text-gray-600">{t('serviceHint')}</p>
    </Section>
  );
}
