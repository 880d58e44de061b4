import type { InputHTMLAttributes, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { inputClass } from './ui';

interface Labelled {
  id: string;
  label: string;
  error?: string;
  hint?: string;
}

function described(id: string, hint?: string, error?: string): string | undefined {
  return [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
}

function Around({ id, label, error, hint, children }: Labelled & { children: React.ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      {hint ? (
        <span id={`${id}-hint`} className="text-xs text-gray-500">
          {hint}
        </span>
      ) : null}
      {children}
      {error ? (
        <p id={`${id}-error`} role="alert" className="m-0 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input whose error is tied to it (aria-describedby, aria-invalid) and announced when it appears. */
export function TextField({ id, label, error, hint, ...input }: Labelled & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Around id={id} label={label} error={error} hint={hint}>
      <input id={id} className={inputClass} aria-invalid={error ? true : undefined} aria-describedby={described(id, hint, error)} {...input} />
    </Around>
  );
}

export function TextAreaField({ id, label, error, hint, ...textarea }: Labelled & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Around id={id} label={label} error={error} hint={hint}>
      <textarea id={id} rows={2} className={inputClass} aria-invalid={error ? true : undefined} aria-describedby={described(id, hint, error)} {...textarea} />
    </Around>
  );
}

export function SelectField({ id, label, error, hint, options, ...select }: Labelled & SelectHTMLAttributes<HTMLSelectElement> & { options: { value: string; label: string }[] }) {
  return (
    <Around id={id} label={label} error={error} hint={hint}>
      <select id={id} className={inputClass} aria-invalid={error ? true : undefined} aria-describedby={described(id, hint, error)} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Around>
  );
}

/** The form-level message: errors announced assertively, confirmations politely. */
export function FormStatus({ error, success }: { error?: string; success?: string }) {
  return (
    <>
      <div aria-live="assertive">
        {error ? (
          <p role="alert" className="m-0 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        ) : null}
      </div>
      <div aria-live="polite">
        {success ? (
          <p role="status" className="m-0 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
            {success}
          </p>
        ) : null}
      </div>
    </>
  );
}
