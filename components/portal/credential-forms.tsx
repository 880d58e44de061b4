'use client';

import type { CodeOnlyStepUpAsk } from '@/lib/accounts/step-up';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { CredentialForm, CredentialFormChoice, CredentialFormField } from '@/lib/credentials/credential-form';
import type { ActionResult } from './action-result';
import { Field, FormMessage, TextAreaField } from './field';
import { StepUpField } from './step-up-field';
import { button, card, fieldError, fieldLabel, sectionTitle } from './styles';
import { useHydrated } from './use-hydrated';

export type CredentialSubmit = (input: Record<string, string>) => Promise<ActionResult<{ id: number }>>;

/** Submits the form's fields; on success the form is emptied (secrets are never shown again) and the list refreshed. */
function useCredentialForm(submit: CredentialSubmit) {
  const router = useRouter();
  const t = useTranslations('portal.credentials');
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values: Record<string, string> = {};
    for (const [name, value] of new FormData(form)) if (typeof value === 'string') values[name] = value;
    setPending(true);
    setMessage({});
    const result = await submit(values);
    setPending(false);
    if (result.ok) {
      form.reset();
      setFieldErrors({});
      setMessage({
        success: t('submittedNote', { id: result.data.id }),
      });
      router.refresh();
    } else {
      setFieldErrors(result.fieldErrors ?? {});
      setMessage({ error: result.message });
    }
  }
  return { pending, message, fieldErrors, onSubmit };
}

/** The channel's own messages (portal.credentials.<name in lower case>), by key; credential-form.test.ts checks them. */
type Translate = ((key: string) => string) & { rich: (key: string, tags: Record<string, (chunks: ReactNode) => ReactNode>) => ReactNode };

/** One input of the description: label and hint read from the channel's messages, id and error by its name. */
function CredentialInput({ field, channelKey, text, error }: { field: CredentialFormField; channelKey: string; text: Translate; error?: string }) {
  // Labels and hints quote the upstream's own names (appid, apiclient_key.pem) as code.
  const code = (chunks: ReactNode) => <code>{chunks}</code>;
  const common = { label: text.rich(field.label, { code }), name: field.name, fieldId: `${channelKey}-${field.name}`, hint: field.hint ? text.rich(field.hint, { code }) : undefined, required: field.required, error };
  if (field.kind === 'textarea') return <TextAreaField {...common} />;
  return <Field {...common} type={field.kind === 'password' ? 'password' : undefined} inputMode={field.numeric ? 'numeric' : undefined} />;
}

/**
 * Alternatives given one at a time (radio buttons, the first chosen to begin with); an error about a field of an
 * alternative not shown (such as "give one of them") is shown under the one that is.
 */
function CredentialChoice({ choice, channelKey, text, fieldErrors }: { choice: CredentialFormChoice; channelKey: string; text: Translate; fieldErrors: Record<string, string> }) {
  const [chosen, setChosen] = useState(choice.alternatives[0]?.value);
  const shown = choice.alternatives.find((alternative) => alternative.value === chosen);
  const hiddenErrors = choice.alternatives
    .filter((alternative) => alternative !== shown)
    .flatMap((alternative) => alternative.fields.map((field) => fieldErrors[field.name]))
    .filter((error) => error !== undefined);
  return (
    <>
      <fieldset className="m-0 mb-4 flex flex-wrap gap-x-5 gap-y-2 border-0 p-0">
        <legend className={`${fieldLabel} mb-1.5 p-0`}>{text(choice.legend)}</legend>
        {choice.alternatives.map((alternative) => (
          <label key={alternative.value} className="inline-flex items-center gap-2">
            <input
              type="radio"
              className="size-4 accent-teal-700"
              name={choice.name}
              value={alternative.value}
              checked={chosen === alternative.value}
              onChange={() => setChosen(alternative.value)}
            />{' '}
            {text(alternative.label)}
          </label>
        ))}
      </fieldset>
      {shown?.fields.map((field) => <CredentialInput key={field.name} field={field} channelKey={channelKey} text={text} error={fieldErrors[field.name]} />)}
      {hiddenErrors.map((error) => (
        <p key={error} className={`${fieldError} mb-4`} role="alert">
          {error}
        </p>
      ))}
    </>
  );
}

/**
 * A channel's credential form, rendered from the description the channel gives (lib/channels/<name>/credential-form.ts);
 * its texts are the channel's messages (portal.credentials.<name in lower case>: title, form, submit, the labels).
 */
export function ChannelCredentialForm({
  channel,
  form,
  submitCredentialAction,
  stepUp,
}: {
  channel: string;
  form: CredentialForm;
  submitCredentialAction: CredentialSubmit;
  /** What the submission asks first (StepUpField): for an account with an authenticator app, its code. */
  stepUp: CodeOnlyStepUpAsk;
}) {
  const credentials = useTranslations('portal.credentials');
  const channelKey = channel.toLowerCase();
  const text: Translate = Object.assign((key: string) => credentials(`${channelKey}.${key}`), {
    rich: (key: string, tags: Record<string, (chunks: ReactNode) => ReactNode>) => credentials.rich(`${channelKey}.${key}`, tags),
  });
  const hydrated = useHydrated();
  const { pending, message, fieldErrors, onSubmit } = useCredentialForm((input) => submitCredentialAction({ ...input, channel }));
  return (
    <section className={card} aria-labelledby={`${channelKey}-heading`}>
      <h2 id={`${channelKey}-heading`} className={sectionTitle}>
        {text('title')}
      </h2>
      <form onSubmit={onSubmit} noValidate aria-busy={pending} aria-label={text('form')} autoComplete="off">
        <FormMessage error={message.error} success={message.success} />
        {form.parts.map((part) =>
          part.kind === 'choice' ? (
            <CredentialChoice key={part.name} choice={part} channelKey={channelKey} text={text} fieldErrors={fieldErrors} />
          ) : (
            <CredentialInput key={part.name} field={part} channelKey={channelKey} text={text} error={fieldErrors[part.name]} />
          ),
        )}
        <StepUpField ask={stepUp} fieldId={`${channelKey}-step-up`} error={fieldErrors.password} />
        <button type="submit" className={button()} disabled={pending || !hydrated}>
          {text('submit')}
        </button>
      </form>
    </section>
  );
}
