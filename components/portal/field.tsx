import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { codeArea, control as controlClass, fieldError, fieldLabel, fieldWrap, formError, formSuccess, note } from './styles';

interface LabelledProps {
  label: ReactNode;
  name: string;
  error?: string;
  hint?: ReactNode;
  fieldId?: string;
}

/**
 * The label, hint and error around one control; the error is tied to the control (aria-describedby) and announced
 * when it appears. `control` receives the attributes the control must carry.
 */
function Labelled({
  label,
  name,
  error,
  hint,
  fieldId,
  control,
}: LabelledProps & { control: (attributes: { id: string; name: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode }) {
  const id = fieldId ?? `field-${name}`;
  const described = [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className={fieldWrap}>
      <label htmlFor={id} className={fieldLabel}>
        {label}
      </label>
      {hint ? (
        <span id={`${id}-hint`} className={note}>
          {hint}
        </span>
      ) : null}
      {control({ id, name, 'aria-invalid': error ? true : undefined, 'aria-describedby': described })}
      {error ? (
        <p id={`${id}-error`} className={fieldError} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input whose error is tied to it and announced when it appears. */
export function Field({ label, name, error, hint, fieldId, ...input }: LabelledProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Labelled label={label} name={name} error={error} hint={hint} fieldId={fieldId} control={(attributes) => <input className={controlClass} {...attributes} {...input} />} />
  );
}

/** A labelled multi-line input (PEM keys and certificates), with its error tied to it and announced like Field's. */
export function TextAreaField({ label, name, error, hint, fieldId, ...textarea }: LabelledProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Labelled
      label={label}
      name={name}
      error={error}
      hint={hint}
      fieldId={fieldId}
      control={(attributes) => <textarea className={codeArea} {...attributes} rows={4} spellCheck={false} {...textarea} />}
    />
  );
}

/** A labelled select (its options as children), with its error tied to it and announced like Field's. */
export function SelectField({ label, name, error, hint, fieldId, children, ...select }: LabelledProps & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Labelled
      label={label}
      name={name}
      error={error}
      hint={hint}
      fieldId={fieldId}
      control={(attributes) => (
        <select className={controlClass} {...attributes} {...select}>
          {children}
        </select>
      )}
    />
  );
}

/** The form-level message: errors are announced assertively, confirmations politely. */
export function FormMessage({ error, success }: { error?: string; success?: string }) {
  return (
    <>
      <div aria-live="assertive">
        {error ? (
          <p className={formError} role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <div aria-live="polite">
        {success ? (
          <p className={formSuccess} role="status">
            {success}
          </p>
        ) : null}
      </div>
    </>
  );
}
