import { describe, expect, it } from 'vitest';
import { credentialChannels } from '../channels';
import { LOCALES } from '../i18n/locales';
import { loadMessages } from '../i18n/messages';
import type { CredentialForm, CredentialFormField } from './credential-form';

const fieldKeys = (field: CredentialFormField) => (field.hint ? [field.label, field.hint] : [field.label]);

/** Every message key a channel's form asks for: its title, form name and button, and each label, hint and legend. */
function formKeys(form: CredentialForm): string[] {
  const keys = ['title', 'form', 'submit'];
  for (const part of form.parts) {
    if (part.kind === 'choice') {
      keys.push(part.legend);
      for (const alternative of part.alternatives) keys.push(alternative.label, ...alternative.fields.flatMap(fieldKeys));
    } else {
      keys.push(...fieldKeys(part));
    }
  }
  return keys;
}

function inputNames(form: CredentialForm): string[] {
  return form.parts.flatMap((part) => (part.kind === 'choice' ? part.alternatives.flatMap((alternative) => alternative.fields.map((field) => field.name)) : [part.name]));
}

describe("the channels' credential forms", () => {
  it('find every label and hint in both catalogues, under the channel', async () => {
    for (const locale of LOCALES) {
      const messages = await loadMessages(locale, ['portal']);
      const credentials = (messages.portal as { credentials: Record<string, Record<string, unknown>> }).credentials;
      for (const channel of credentialChannels()) {
        const own = credentials[channel.name.toLowerCase()] ?? {};
        const missing = formKeys(channel.credentials.form).filter((key) => typeof own[key] !== 'string');
        expect(missing, `${locale} ${channel.name}`).toEqual([]);
      }
    }
  });

  it('ask for exactly the fields the channel validates', () => {
    for (const channel of credentialChannels()) {
      expect(inputNames(channel.credentials.form).sort(), channel.name).toEqual(Object.keys(channel.credentials.fieldLabels).sort());
    }
  });
});
