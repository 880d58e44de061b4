'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from 'next-auth/react';
import { useState } from 'react';

const LINKS = [
  { href: '/operator', label: 'Overview · 概览' },
  { href: '/operator/merchants', label: 'Merchants · 商户' },
  { href: '/operator/credentials', label: 'Credential review · 凭证审核' },
  { href: '/operator/addresses', label: 'Addresses · 收款地址' },
  { href: '/operator/attention', label: 'Attention · 待处理' },
  { href: '/operator/audit', label: 'Audit log · 审计日志' },
  { href: '/operator/health', label: 'Health · 运行状态' },
];

export function OperatorNav({ email }: { email: string }) {
  const pathname = usePathname();
  const [pending, setPending] = useState(false);
  return (
    <header className="border-b border-gray-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <strong className="text-base">Operator console · 运营后台</strong>
        <span className="flex-1" />
        <span className="text-sm text-gray-500" data-testid="operator-email">
          {email}
        </span>
        <button
          type="button"
          className="rounded-md border border-teal-700 bg-white px-3 py-1 text-sm text-teal-800 disabled:opacity-60"
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
      </div>
      <nav aria-label="Operator console · 运营后台" className="mx-auto max-w-7xl overflow-x-auto px-4">
        <ul className="m-0 flex list-none gap-1 p-0 whitespace-nowrap">
          {LINKS.map((link) => {
            const current = link.href === '/operator' ? pathname === '/operator' : pathname.startsWith(link.href);
            return (
              <li key={link.href}>
                <Link
                  href={link.href}
                  aria-current={current ? 'page' : undefined}
                  className={`inline-block border-b-2 px-2 py-2 text-sm no-underline ${current ? 'border-teal-700 font-semibold text-gray-900' : 'border-transparent text-gray-700 hover:text-gray-900'}`}
                >
                  {link.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
    </header>
  );
}
