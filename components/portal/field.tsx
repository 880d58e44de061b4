import type { InputHTMLAttributes, TextareaHTMLAttributes } from 'react';

/** A labelled input whose error is tied to it (aria-describedby) and announced when it appears. */
export function Field({
  label,
  name,
  error,
  hint,
  fieldId,
  ...input
}: { label: string; name: string; error?: string; hint?: string; fieldId?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = fieldId ?? `field-${name}`;
  const described = [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span id={`${id}-hint`} className="note">
          {hint}
        </span>
      ) : null}
      <input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The form-level message: errors are announced assertively, confirmations politely. */
export function FormMessage({ error, success }: { error?: string; success?: string }) {
  return (
    <>
      <div aria-live="assertive">{error ? <p className="form-error" role="alert">{error}</p> : null}</div>
      <div aria-live="polite">{success ? <p className="form-success" role="status">{success}</p> : null}</div>
    </>
  );
}

/** A labelled multi-line input (PEM keys and certificates), with its error tied to it and announced like Field's. */
export function TextAreaField({
  label,
  name,
  error,
  hint,
  fieldId,
  ...textarea
}: { label: string; name: string; error?: string; hint?: string; fieldId?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = fieldId ?? `field-${name}`;
  const described = [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <span id={`${id}-hint`} className="note">
          {hint}
        </span>
      ) : null}
      <textarea id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={described} rows={4} spellCheck={false} {...textarea} />
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
