'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { OperatorActionResult } from '@/components/operator/action-result';
import { useHydrated } from '@/components/portal/use-hydrated';
import { FormStatus, SelectField, TextField } from '@/components/operator/field';
import { buttonClass } from '@/components/operator/ui';
import { useServerAction } from '@/components/back-office/use-server-action';

/** Adds a receiving address on any USDT chain of the pool; a malformed one is refused with the field named. */
export function AddAddressForm({
  chains,
  addAddressAction,
}: {
  /** Each chain's name and how the console names it, e.g. "BEP20（币安智能链）". */
  chains: { value: string; label: string }[];
  addAddressAction: (input: { chain: string; address: string }) => Promise<OperatorActionResult<{ id: number; created: boolean }>>;
}) {
  const t = useTranslations('console.addresses');
  const hydrated = useHydrated();
  const { pending, error, fieldErrors, run } = useServerAction();
  const [success, setSuccess] = useState<string>();
  return (
    <form
      aria-label={t('addForm')}
      noValidate
      className="flex flex-col gap-3"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = event.currentTarget;
        setSuccess(undefined);
        const fields = new FormData(form);
        const address = String(fields.get('address') ?? '');
        const chain = String(fields.get('chain') ?? '');
        const result = await run(() => addAddressAction({ chain, address }));
        if (result.ok) {
          setSuccess(result.data.created ? t('added1', { id: result.data.id }) : t('already', { id: result.data.id }));
          form.reset();
        }
      }}
    >
      <FormStatus error={fieldErrors.address || fieldErrors.chain ? undefined : error} success={success} />
      <SelectField id="new-address-chain" name="chain" label={t('chain')} options={chains} error={fieldErrors.chain} />
      <TextField
        id="new-address"
        name="address"
        label={t('address')}
        hint={t('addressHint')}
        autoComplete="off"
        spellCheck={false}
        required
        error={fieldErrors.address}
      />
      <div>
        <button type="submit" className={buttonClass.primary} disabled={pending || !hydrated}>
          {t('addButton')}
        </button>
      </div>
    </form>
  );
}

export function AddressToggle({ id, address, enabled, setAddressEnabledAction }: { id: number; address: string; enabled: boolean; setAddressEnabledAction: (addressId: number, enabled: boolean) => Promise<OperatorActionResult<{ enabled: boolean }>> }) {
  const t = useTranslations('console.addresses');
  const hydrated = useHydrated();
  const { pending, error, run } = useServerAction();
  return (
    <div className="flex flex-col gap-1">
      <button
        type="button"
        className={buttonClass.secondary}
        disabled={pending || !hydrated}
        aria-label={enabled ? t('disableLabel', { address }) : t('enableLabel', { address })}
        onClick={() => run(() => setAddressEnabledAction(id, !enabled))}
      >
        {enabled ? t('disable') : t('enable')}
      </button>
      <FormStatus error={error} />
    </div>
  );
}

/** The platform's per-order USDT limit. */
export function UsdtLimitForm({ current, setUsdtLimitAction }: { current: string; setUsdtLimitAction: (input: { usdtMax: string }) => Promise<OperatorActionResult<{ usdtMax: string }>> }) {
  const t = useTranslations('console.addresses');
  const hydrated = useHydrated();
  const { pending, error, fieldErrors, run } = useServerAction();
  const [success, setSuccess] = useState<string>();
  return (
    <form
      aria-label={t('limitForm')}
      noValidate
      className="flex flex-wrap items-end gap-3"
      onSubmit={async (event) => {
        event.preventDefault();
        setSuccess(undefined);
        const usdtMax = String(new FormData(event.currentTarget).get('usdtMax') ?? '');
        const result = await run(() => setUsdtLimitAction({ usdtMax }));
        if (result.ok) setSuccess(t('saved'));
      }}
    >
      <div className="w-full sm:w-64">
        <TextField
          id="usdt-max"
          name="usdtMax"
          label={t('max')}
          hint={t('maxHint')}
          inputMode="decimal"
          defaultValue={current}
          required
          error={fieldErrors.usdtMax}
        />
      </div>
      <button type="submit" className={buttonClass.primary} disabled={pending || !hydrated}>
        {t('save')}
      </button>
      <div className="w-full">
        <FormStatus error={fieldErrors.usdtMax ? undefined : error} success={success} />
      </div>
    </form>
  );
}
