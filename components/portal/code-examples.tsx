import { CopyButton } from '@/components/checkout/copy-button';
import type { CodeExample } from '@/lib/portal/api-examples';

/** One operation's examples, one collapsible block per language, each with its own copy button. */
export function CodeExamples({ examples }: { examples: CodeExample[] }) {
  return (
    <div className="code-examples">
      {examples.map((example, index) => (
        <details key={example.language} open={index === 0} data-testid={`example-${example.operation}-${example.language}`}>
          <summary>{example.label}</summary>
          <div className="code-example-bar">
            <CopyButton
              text={example.code}
              label={`Copy ${example.label} · 复制`}
              copiedLabel="Copied · 已复制"
              testId={`copy-${example.operation}-${example.language}`}
            />
          </div>
          <pre className="code">
            <code>{example.code}</code>
          </pre>
        </details>
      ))}
    </div>
  );
}
