'use client';

import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import type { ActionResult } from './action-result';
import type { SignatureDebugResult } from '@/lib/portal/signature-debugger';
import { signatureHintValues } from '@/lib/portal/signature-hints';
import { FormMessage } from './field';
import { button, card, codeArea, details, detailsTerm, detailsValue, fieldLabel, fieldWrap, mono, sectionTitle } from './styles';
import { useHydrated } from './use-hydrated';


export function SignatureDebugger({ appId, debugSignatureAction }: { appId: string; debugSignatureAction: (input: { body: string }) => Promise<ActionResult<SignatureDebugResult>> }) {
  const t = useTranslations('portal.signature');
  const hydrated = useHydrated();
  const [result, setResult] = useState<SignatureDebugResult>();
  const [error, setError] = useState<{ message?: string }>({});
  const [pending, setPending] = useState(false);
  const example = JSON.stringify({ appId, merchantOrderNo: 'ORDER-1', pay_usdt: '10.50', chainType: '1', attach: '', signature: '' }, null, 2);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setPending(true);
    const outcome = await debugSignatureAction({ body: String(data.get('body') ?? '') });
    setPending(false);
    if (outcome.ok) {
      setResult(outcome.data);
      setError({});
    } else {
      setResult(undefined);
      setError({ message: outcome.message });
    }
  }

  return (
    <>
      <form className={card} onSubmit={onSubmit} noValidate aria-busy={pending}>
        <FormMessage error={error.message} />
        <div className={fieldWrap}>
          <label htmlFor="debug-body" className={fieldLabel}>{t('body')}</label>
          <textarea id="debug-body" name="body" rows={10} className={codeArea} defaultValue={example} spellCheck={false} />
        </div>
        <button className={button()} type="submit" disabled={pending || !hydrated}>
          {t('check')}
        </button>
      </form>
      <div aria-live="polite">
        {result ? (
          <section className={card} aria-labelledby="debug-result" data-testid="signature-result">
            <h2 id="debug-result" className={sectionTitle}>{t(`verdicts.${result.verdict}`)}</h2>
            <dl className={details}>
              {result.parseError ? (
                <>
                  <dt className={detailsTerm}>{t('error')}</dt>
                  {/* The open API's own answer, quoted as the merchant's server would receive it. */}
                  <dd className={detailsValue}>
                    {t('errorAnswer')} <code lang="en">{result.parseError}</code>
                  </dd>
                </>
              ) : null}
              {result.signedText ? (
                <>
                  <dt className={detailsTerm}>{t('signedText')}</dt>
                  <dd className={`${detailsValue} ${mono}`} data-testid="signed-text">
                    {result.signedText}
                  </dd>
                </>
              ) : null}
              {result.given ? (
                <>
                  <dt className={detailsTerm}>{t('yours')}</dt>
                  <dd className={`${detailsValue} ${mono}`}>{result.given}</dd>
                </>
              ) : null}
            </dl>
            {result.hints.length > 0 ? (
              <ul className="mt-3 mb-0 list-disc space-y-1 pl-5 text-sm" data-testid="signature-hints">
                {result.hints.map((hint) => (
                  <li key={hint.code}>{t(`hints.${hint.code}`, signatureHintValues(hint))}</li>
                ))}
              </ul>
            ) : null}
          </section>
        ) : null}
      </div>
    </>
  );
}
