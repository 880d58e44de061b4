'use client';

import { useRef, useState, type KeyboardEvent } from 'react';
import { CopyButton } from '@/components/checkout/copy-button';
import type { ExampleSource } from '@/lib/examples/example-sources';
import { codeBlock, focusRing } from './styles';

export interface ExampleProgramTabsLabels {
  tabs: string;
  run: string;
  copied: string;
}

/**
 * The example programs in tabs, one per language (WAI-ARIA tabs: arrow keys, Home and End move between them), each
 * with its copy button. Without JavaScript the first language shows.
 */
export function ExampleProgramTabs({ programs, labels }: { programs: (Pick<ExampleSource, 'language' | 'label' | 'run' | 'code'> & { copyLabel: string })[]; labels: ExampleProgramTabsLabels }) {
  const [selected, setSelected] = useState(0);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const select = (index: number) => {
    const next = (index + programs.length) % programs.length;
    setSelected(next);
    tabs.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: selected + 1, ArrowLeft: selected - 1, Home: 0, End: programs.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    select(moves[event.key]!);
  };
  return (
    <div className="mt-3">
      <div role="tablist" aria-label={labels.tabs} className="flex flex-wrap gap-1 border-b border-gray-200" onKeyDown={onKeyDown}>
        {programs.map((program, index) => (
          <button
            key={program.language}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`program-tab-${program.language}`}
            aria-selected={index === selected}
            aria-controls={`program-${program.language}`}
            tabIndex={index === selected ? 0 : -1}
            onClick={() => setSelected(index)}
            className={`-mb-px rounded-t-md border px-3 py-1.5 text-sm font-semibold ${focusRing} ${
              index === selected ? 'border-gray-200 border-b-white bg-white text-teal-800' : 'border-transparent text-gray-700 hover:text-teal-800'
            }`}
            data-testid={`program-tab-${program.language}`}
          >
            {program.label}
          </button>
        ))}
      </div>
      {programs.map((program, index) => (
        <div
          key={program.language}
          role="tabpanel"
          id={`program-${program.language}`}
          aria-labelledby={`program-tab-${program.language}`}
          hidden={index !== selected}
          data-testid={`program-${program.language}`}
        >
          <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
            <p className="m-0 text-sm text-gray-600">
              {labels.run} <code className="font-mono text-xs">{program.run}</code>
            </p>
            <CopyButton text={program.code} label={program.copyLabel} copiedLabel={labels.copied} testId={`copy-program-${program.language}`} />
          </div>
          <pre className={codeBlock} tabIndex={0} data-testid={`program-code-${program.language}`}>
            <code>{program.code}</code>
          </pre>
        </div>
      ))}
    </div>
  );
}
