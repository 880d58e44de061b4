'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { deleteCredentialAction, setCredentialEnabledAction } from '@/app/portal/(merchant)/credentials/actions';
import { FormMessage } from './field';
import { button, warning } from './styles';

/** Enable/disable and delete (after a confirmation) one credential; the server checks it is the merchant's. */
export function CredentialActions({ id, enabled }: { id: number; enabled: boolean }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();

  async function run(action: () => Promise<{ ok: true } | { ok: false; message: string }>) {
    setPending(true);
    setError(undefined);
    const result = await action();
    setPending(false);
    if (result.ok) {
      setConfirming(false);
      router.refresh();
    } else setError(result.message);
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <FormMessage error={error} />
      <button
        type="button"
        className={button('secondary')}
        disabled={pending}
        aria-label={`${enabled ? 'Disable' : 'Enable'} credential ${id} · ${enabled ? '停用' : '启用'}凭证 ${id}`}
        onClick={() => run(() => setCredentialEnabledAction(id, !enabled))}
      >
        {enabled ? 'Disable · 停用' : 'Enable · 启用'}
      </button>
      {confirming ? (
        <span role="group" className="flex flex-wrap items-center gap-2" aria-label={`Confirm deleting credential ${id} · 确认删除凭证 ${id}`}>
          <span className={`${warning} whitespace-normal`}>Delete credential {id}? Orders can no longer use it. · 删除后订单将无法使用。</span>
          <button type="button" className={button('danger')} disabled={pending} onClick={() => run(() => deleteCredentialAction(id))}>
            Confirm delete · 确认删除
          </button>
          <button type="button" className={button('secondary')} disabled={pending} onClick={() => setConfirming(false)}>
            Cancel · 取消
          </button>
        </span>
      ) : (
        <button type="button" className={button('danger')} disabled={pending} aria-label={`Delete credential ${id} · 删除凭证 ${id}`} onClick={() => setConfirming(true)}>
          Delete · 删除
        </button>
      )}
    </div>
  );
}
