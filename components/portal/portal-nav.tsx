'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from 'next-auth/react';
import { useState } from 'react';
import { button, focusRing } from './styles';

const LINKS = [
  { href: '/portal', label: 'Overview · 概览' },
  { href: '/portal/orders', label: 'Orders · 订单' },
  { href: '/portal/keys', label: 'Interface keys · 接口密钥' },
  { href: '/portal/credentials', label: 'Credentials · 上游凭证' },
  { href: '/portal/signature', label: 'Signature debugger · 签名调试' },
  { href: '/portal/api', label: 'API reference · 接口文档' },
  { href: '/portal/account', label: 'Account · 账户' },
];

export function PortalNav({ merchantName, email }: { merchantName: string; email: string }) {
  const pathname = usePathname();
  const [pending, setPending] = useState(false);
  return (
    <nav className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-gray-200 py-3" aria-label="Back office · 后台">
      <strong className="w-full sm:w-auto">{merchantName}</strong>
      {LINKS.map((link) => {
        const current = link.href === '/portal' ? pathname === '/portal' : pathname.startsWith(link.href);
        return (
          <Link
            key={link.href}
            href={link.href}
            aria-current={current ? 'page' : undefined}
            className={`border-b-2 border-transparent px-0.5 py-1 text-gray-900 no-underline hover:border-gray-300 aria-[current=page]:border-teal-700 aria-[current=page]:font-bold ${focusRing}`}
          >
            {link.label}
          </Link>
        );
      })}
      <span className="hidden flex-1 sm:block" />
      <span className="text-sm break-all text-gray-600">{email}</span>
      <button
        type="button"
        className={button('secondary', 'sm')}
        disabled={pending}
        onClick={async () => {
          setPending(true);
          await signOut({ redirect: false });
          // A full load, so that no signed-in page stays in the client router's cache.
          // eslint-disable-next-line @next/next/no-location-assign-relative-destination
          window.location.assign('/portal/sign-in');
        }}
      >
        Sign out · 退出
      </button>
    </nav>
  );
}
