'use client';

import { useState } from 'react';
import { addAddressAction, setAddressEnabledAction, setUsdtLimitAction } from '@/app/operator/addresses/actions';
import { useHydrated } from '@/components/portal/use-hydrated';
import { FormStatus, TextField } from './field';
import { buttonClass } from './ui';
import { useOperatorAction } from './use-operator-action';

/** Adds a TRC20 receiving address; a malformed one is refused with the field named. */
export function AddAddressForm() {
  const hydrated = useHydrated();
  const { pending, error, fieldErrors, run } = useOperatorAction();
  const [success, setSuccess] = useState<string>();
  return (
    <form
      aria-label="Add a receiving address · 添加收款地址"
      noValidate
      className="flex flex-col gap-3"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = event.currentTarget;
        setSuccess(undefined);
        const address = String(new FormData(form).get('address') ?? '');
        const result = await run(() => addAddressAction({ address }));
        if (result.ok) {
          setSuccess(result.data.created ? `Address added (id ${result.data.id}). · 地址已添加。` : `Already in the pool (id ${result.data.id}). · 地址已在池中。`);
          form.reset();
        }
      }}
    >
      <FormStatus error={fieldErrors.address ? undefined : error} success={success} />
      <TextField
        id="new-address"
        name="address"
        label="Address · 地址"
        hint="TRC20 (TRON), base58check, starts with T · 以 T 开头的 TRON 地址"
        autoComplete="off"
        spellCheck={false}
        required
        error={fieldErrors.address}
      />
      <div>
        <button type="submit" className={buttonClass.primary} disabled={pending || !hydrated}>
          Add address · 添加地址
        </button>
      </div>
    </form>
  );
}

export function AddressToggle({ id, address, enabled }: { id: number; address: string; enabled: boolean }) {
  const hydrated = useHydrated();
  const { pending, error, run } = useOperatorAction();
  return (
    <div className="flex flex-col gap-1">
      <button
        type="button"
        className={buttonClass.secondary}
        disabled={pending || !hydrated}
        aria-label={`${enabled ? 'Disable' : 'Enable'} address ${address} · ${enabled ? '停用' : '启用'}地址`}
        onClick={() => run(() => setAddressEnabledAction(id, !enabled))}
      >
        {enabled ? 'Disable · 停用' : 'Enable · 启用'}
      </button>
      <FormStatus error={error} />
    </div>
  );
}

/** The platform's per-order USDT limit. */
export function UsdtLimitForm({ current }: { current: string }) {
  const hydrated = useHydrated();
  const { pending, error, fieldErrors, run } = useOperatorAction();
  const [success, setSuccess] = useState<string>();
  return (
    <form
      aria-label="USDT per-order limit · USDT 单笔限额"
      noValidate
      className="flex flex-wrap items-end gap-3"
      onSubmit={async (event) => {
        event.preventDefault();
        setSuccess(undefined);
        const usdtMax = String(new FormData(event.currentTarget).get('usdtMax') ?? '');
        const result = await run(() => setUsdtLimitAction({ usdtMax }));
        if (result.ok) setSuccess('Limit saved. · 限额已保存。');
      }}
    >
      <div className="w-full sm:w-64">
        <TextField
          id="usdt-max"
          name="usdtMax"
          label="Maximum per order (USDT) · 单笔上限"
          hint="Larger orders are refused with 1008 · 超出返回 1008"
          inputMode="decimal"
          defaultValue={current}
          required
          error={fieldErrors.usdtMax}
        />
      </div>
      <button type="submit" className={buttonClass.primary} disabled={pending || !hydrated}>
        Save limit · 保存限额
      </button>
      <div className="w-full">
        <FormStatus error={fieldErrors.usdtMax ? undefined : error} success={success} />
      </div>
    </form>
  );
}
