import { getTranslations } from 'next-intl/server';
import { Badge, cell, Section, Table } from '@/components/operator/ui';
import type { RequestBudget } from '@/lib/channels/request-budget';

/** Each watched network's requests a day at the current settings against its provider quota; red when they cannot fit. */
export async function RequestBudgetSection({ budgets }: { budgets: RequestBudget[] }) {
  const t = await getTranslations('console.health');
  if (budgets.length === 0) return null;
  return (
    <Section id="request-budget-heading" title={t('budgets')}>
      <Table label={t('budgets')} head={[t('budgetNetwork'), t('budgetPerDay'), t('budgetQuota'), t('budgetFormula')]}>
        {budgets.map((budget) => {
          const over = budget.quota !== undefined && budget.perDay > budget.quota;
          return (
            <tr key={budget.network} data-testid="request-budget">
              <td className={cell}>{budget.network}</td>
              <td className={cell} data-testid="request-budget-per-day">
                {over ? <Badge tone="bad">{budget.perDay.toLocaleString('en')}</Badge> : budget.perDay.toLocaleString('en')}
              </td>
              <td className={cell} data-testid="request-budget-quota">
                {budget.quota === undefined ? t('budgetNoQuota') : `${budget.quotaSetting} ${budget.quota.toLocaleString('en')}`}{' '}
                {budget.quota === undefined ? null : over ? <Badge tone="bad">{t('budgetOver')}</Badge> : <Badge tone="good">{t('budgetFits')}</Badge>}
              </td>
              <td className={`${cell} font-mono text-xs`} data-technical>{budget.formula}</td>
            </tr>
          );
        })}
      </Table>
    </Section>
  );
}
