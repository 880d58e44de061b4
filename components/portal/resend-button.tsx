'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { resendNotificationAction } from '@/app/portal/(merchant)/orders/[orderNo]/actions';
import { FormMessage } from './field';
import { button } from './styles';

export function ResendButton({ orderNo }: { orderNo: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  return (
    <div>
      <FormMessage error={message.error} success={message.success} />
      <button
        type="button"
        className={button()}
        disabled={pending}
        data-order-no={orderNo}
        onClick={async (event) => {
          setPending(true);
          // The order number is read from the element: the server checks it belongs to the signed-in merchant anyway.
          const result = await resendNotificationAction(event.currentTarget.dataset.orderNo ?? orderNo);
          setPending(false);
          if (result.ok) {
            setMessage({ success: `Notification re-sent (delivery cycle ${result.data.cycle}). / 已重新发送通知（第 ${result.data.cycle} 轮）。` });
            router.refresh();
          } else setMessage({ error: result.message });
        }}
      >
        Resend notification · 重发通知
      </button>
    </div>
  );
}
