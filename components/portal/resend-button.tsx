'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { ActionResult } from './action-result';
import { FormMessage } from './field';
import { button } from './styles';
import { useHydrated } from './use-hydrated';

export function ResendButton({ orderNo, resendNotificationAction }: { orderNo: string; resendNotificationAction: (orderNo: string) => Promise<ActionResult<{ cycle: number }>> }) {
  const router = useRouter();
  const t = useTranslations('portal.order');
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  // A click before the page's scripts run would be lost: the buttons wait for them.
  const hydrated = useHydrated();
  const busy = pending || !hydrated;
  return (
    <div>
      <FormMessage error={message.error} success={message.success} />
      <button
        type="button"
        className={button()}
        disabled={busy}
        data-order-no={orderNo}
        onClick={async (event) => {
          setPending(true);
          // The order number is read from the element: the server checks it belongs to the signed-in merchant anyway.
          const result = await resendNotificationAction(event.currentTarget.dataset.orderNo ?? orderNo);
          setPending(false);
          if (result.ok) {
            setMessage({ success: t('resent', { cycle: result.data.cycle }) });
            router.refresh();
          } else setMessage({ error: result.message });
        }}
      >
        {t('resend')}
      </button>
    </div>
  );
}
