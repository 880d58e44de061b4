import { useTranslations } from 'next-intl';
import { deliveryErrorKind } from '@/lib/notifications/delivery-error-kind';

/** What a stored error (Node's `connect ECONNREFUSED`, an upstream's or a job's message) means, in the reader's words. */
export function useErrorWords(): (error: string) => string {
  const t = useTranslations('common.errorInWords');
  return (error) => {
    const { kind, httpStatus } = deliveryErrorKind(error);
    return kind === 'notAcknowledged' && httpStatus !== undefined ? t('notAcknowledgedStatus', { status: httpStatus }) : t(kind);
  };
}

/**
 * A stored error as a reader sees it: what happened in the page's language first, then the raw text, quoted as code
 * and marked as technical detail, for the one who has to look it up. An error of no known kind reads "error" in words,
 * with the same raw detail; raw text that says what the words say is not repeated.
 */
export function ErrorInWords({ error }: { error: string }) {
  const t = useTranslations('common.errorInWords');
  const words = useErrorWords();
  const said = words(error);
  // Where the words are the raw text already (an English reader's "not acknowledged (HTTP 500)"), it is said once.
  if (said.trim().toLowerCase() === error.trim().toLowerCase()) return <span data-testid="error-in-words">{said}</span>;
  return (
    <>
      <span data-testid="error-in-words">{said}</span>{' '}
      <code className="text-[0.85em] break-all text-gray-600" data-technical title={t('technical')}>
        {error}
      </code>
    </>
  );
}
