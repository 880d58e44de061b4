'use client';

import { useState } from 'react';
import type { OperatorActionResult } from './action-result';
import { useHydrated } from '@/components/portal/use-hydrated';
import { useServerAction } from '@/components/back-office/use-server-action';
import { FormStatus, TextField } from './field';
import { useConsoleActionOutcome } from './console-action-outcome';
import { buttonClass } from './ui';

export interface ConsoleActionField {
  name: string;
  label: string;
  hint?: string;
  defaultValue?: string;
  inputMode?: 'numeric' | 'text';
}

/**
 * One operator action of the console as a small form (the CLI's command for it stays, for scripts): its fields, one
 * button, and what the action answered: its refusal by field, or the sentence saying what was done.
 */
export function ConsoleActionForm({
  id,
  label,
  submitLabel,
  fields,
  action,
}: {
  id: string;
  label: string;
  submitLabel: string;
  fields: ConsoleActionField[];
  action: (values: Record<string, string>) => Promise<OperatorActionResult<{ done: string }>>;
}) {
  const hydrated = useHydrated();
  const { pending, error, fieldErrors, run } = useServerAction();
  const [done, setDone] = useState<string>();
  const say = useConsoleActionOutcome(setDone);
  return (
    <form
      aria-label={label}
      noValidate
      className="flex flex-col gap-3"
      data-testid={id}
      onSubmit={async (event) => {
        event.preventDefault();
        say(undefined);
        const values = Object.fromEntries([...new FormData(event.currentTarget).entries()].map(([name, value]) => [name, String(value)]));
        const result = await run(() => action(values));
        if (result.ok) say(result.data.done);
      }}
    >
      <FormStatus error={fields.some((field) => fieldErrors[field.name]) ? undefined : error} success={done} />
      {fields.length > 0 ? (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          {fields.map((field) => (
            <TextField key={field.name} id={`${id}-${field.name}`} name={field.name} label={field.label} hint={field.hint} defaultValue={field.defaultValue} inputMode={field.inputMode} autoComplete="off" error={fieldErrors[field.name]} />
          ))}
        </div>
      ) : null}
      <div>
        <button type="submit" className={buttonClass.primary} disabled={pending || !hydrated}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
