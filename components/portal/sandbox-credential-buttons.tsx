'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { ActionResult } from './action-result';
import { FormMessage } from './field';
import { button, formSuccess } from './styles';
import { useHydrated } from './use-hydrated';

/** One button per channel that needs the merchant's own credential: the simulator's, approved and enabled. */
export function SandboxCredentialButtons({
  channels,
  addSandboxCredentialAction,
}: {
  channels: { name: string; label: string; usable: boolean }[];
  addSandboxCredentialAction: (channel: string) => Promise<ActionResult<{ channel: string }>>;
}) {
  const t = useTranslations('portal.test');
  const hydrated = useHydrated();
  const [pending, setPending] = useState<string>();
  const [error, setError] = useState<string>();
  const [added, setAdded] = useState<string>();
  return (
    <div>
      <FormMessage error={error} />
      <div className="flex flex-wrap gap-2">
        {channels.map((channel) => (
          <button
            key={channel.name}
            type="button"
            className={button(channel.usable ? 'secondary' : undefined)}
            disabled={pending !== undefined || !hydrated}
            data-testid={`sandbox-credential-${channel.name.toLowerCase()}`}
            onClick={async () => {
              setPending(channel.name);
              setError(undefined);
              setAdded(undefined);
              const result = await addSandboxCredentialAction(channel.name);
              setPending(undefined);
              if (result.ok) setAdded(channel.label);
              else setError(result.message);
            }}
          >
            {t('sandboxCredentialButton', { channel: channel.label })}
          </button>
        ))}
      </div>
      <div aria-live="polite">
        {added ? (
          <p className={`${formSuccess} mt-3`} role="status" data-testid="sandbox-credential-added">
            {t('sandboxCredentialAdded', { channel: added })}
          </p>
        ) : null}
      </div>
    </div>
  );
}
