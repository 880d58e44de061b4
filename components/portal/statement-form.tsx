import { getTranslations } from 'next-intl/server';
import { STATEMENT_FIRST_DAY, STATEMENT_LAST_DAY, statementRefusalField, type StatementRefusal } from '@/lib/portal/merchant-statement';
import { button, control, fieldError, fieldLabel, fieldWrap, note } from './styles';

const REFUSALS: readonly StatementRefusal[] = ['from', 'fromOutOfRange', 'to', 'toOutOfRange', 'range'];

/** What the statement route sent back to the form (app/portal/(merchant)/statement/route.ts): the refusal and the days typed. */
export interface StatementFormState {
  refused?: StatementRefusal;
  from?: string;
  to?: string;
}

/** Reads the refusal the statement route redirected with; anything else is no refusal. */
export function statementFormState(params: Record<string, string | string[] | undefined>): StatementFormState {
  const first = (name: string) => (Array.isArray(params[name]) ? params[name][0] : params[name]);
  const refused = first('statementError');
  const day = (value: string | undefined) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined);
  return { refused: REFUSALS.find((reason) => reason === refused), from: day(first('statementFrom')), to: day(first('statementTo')) };
}

/**
 * The statement's download form. The browser refuses days outside the service's range itself (min, max); what only
 * the server judges (the end before the start, more than a year) comes back here as an error on its field.
 */
export async function StatementForm({
  timeZone,
  defaults,
  state,
  includeTest,
  foldOnPhone,
}: {
  timeZone: string;
  defaults: { from?: string; to?: string };
  state: StatementFormState;
  includeTest: boolean;
  /** Hidden on a phone until its link (#statement) is followed. */
  foldOnPhone: boolean;
}) {
  const [t, refused] = await Promise.all([getTranslations('portal.orders'), getTranslations('portal.statement.refused')]);
  const errorField = state.refused ? statementRefusalField(state.refused) : undefined;
  const dayField = (name: 'from' | 'to') => {
    const id = `statement-${name}`;
    const error = errorField === name ? refused(state.refused!) : undefined;
    return (
      <div className={fieldWrap}>
        <label htmlFor={id} className={fieldLabel}>
          {t(name)}
        </label>
        <input
          id={id}
          className={`${control} h-10`}
          name={name}
          type="date"
          required
          min={STATEMENT_FIRST_DAY}
          max={STATEMENT_LAST_DAY}
          defaultValue={state[name] ?? defaults[name] ?? ''}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error statement-hint` : 'statement-hint'}
        />
        {error ? (
          <p id={`${id}-error`} className={`${fieldError} max-w-xs`} role="alert" data-testid="statement-error">
            {error}
          </p>
        ) : null}
      </div>
    );
  };
  return (
    <form
      id="statement"
      className={`mb-4 flex-wrap items-start gap-x-4 rounded-xl border border-gray-200 bg-white p-4 pb-0 target:flex sm:flex sm:p-5 sm:pb-1 ${foldOnPhone ? 'hidden' : 'flex'}`}       method="get"
      action="/portal/statement"
      aria-label={t('statementLabel')}
    >
      {dayField('from')}
      {dayField('to')}
      <div className={`${fieldWrap} justify-end sm:pt-6`}>
        <label className="flex min-h-10 items-center gap-2 text-sm">
          <input type="checkbox" name="test" value="include" defaultChecked={includeTest} data-testid="statement-include-test" />
          {t('statementIncludeTest')}
        </label>
      </div>
      <div className={`${fieldWrap} sm:pt-6`}>
        <button className={button()} type="submit">
          {t('statement')}
        </button>
      </div>
      <p id="statement-hint" className={`${note} mb-4 basis-full`}>
        {t('statementHint', { zone: timeZone })}
      </p>
    </form>
  );
}
