import { getTranslations } from 'next-intl/server';
import { CopyButton } from '@/components/checkout/copy-button';
import type { CodeExample } from '@/lib/portal/api-examples';
import { codeBlock, focusRing } from './styles';

/** One operation's examples, one collapsible block per language, each with its own copy button. */
export async function CodeExamples({ examples }: { examples: CodeExample[] }) {
  const t = await getTranslations('portal.api.examples');
  return (
    <div>
      {examples.map((example, index) => (
        <details
          key={example.language}
          open={index === 0}
          className="mt-2.5 rounded-lg border border-gray-200 bg-white"
          data-testid={`example-${example.operation}-${example.language}`}
        >
          <summary className={`cursor-pointer rounded-lg px-3 py-2 font-semibold ${focusRing}`}>{example.label}</summary>
          <div className="flex justify-end px-3">
            <CopyButton
              text={example.code}
              label={t('copy', { language: example.label })}
              copiedLabel={t('copied')}
              testId={`copy-${example.operation}-${example.language}`}
            />
          </div>
          <pre className={`${codeBlock} mx-3 mb-3`} tabIndex={0}>
            <code>{example.code}</code>
          </pre>
        </details>
      ))}
    </div>
  );
}
