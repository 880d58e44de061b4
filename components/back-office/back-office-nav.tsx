'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from 'next-auth/react';
import { useState } from 'react';
import { LanguageSwitch } from '@/components/i18n/language-switch';
import type { Locale } from '@/lib/i18n/locales';

export interface NavLink {
  href: string;
  label: string;
  /** A short warning shown beside the link (failing notifications), also read out with it. */
  badge?: string;
}

const focusRing = 'focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-teal-700';
const quietButton = `inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-md border border-teal-700 bg-white px-3 py-1 text-sm text-teal-800 [font-family:inherit] cursor-pointer hover:bg-teal-50 disabled:opacity-60 ${focusRing}`;

function isCurrent(href: string, home: string, pathname: string): boolean {
  return href === home ? pathname === home : pathname === href || pathname.startsWith(`${href}/`);
}

/**
 * The portal's and the console's navigation: tabs from the large breakpoint, a menu button on phones and tablets. The
 * menu is a `<details>`, so it opens before (and without) any script; the language switch is a form post.
 */
export function BackOfficeNav({
  title,
  label,
  links,
  home,
  email,
  emailTestId = 'signed-in-email',
  locale,
  texts,
}: {
  title: string;
  label: string;
  links: NavLink[];
  home: string;
  email: string;
  emailTestId?: string;
  locale: Locale;
  texts: { menu: string; signOut: string; language: string };
}) {
  const pathname = usePathname() ?? home;
  const [pending, setPending] = useState(false);
  const linkList = (layout: 'tabs' | 'menu') =>
    links.map((link) => {
      const current = isCurrent(link.href, home, pathname);
      const look =
        layout === 'tabs'
          ? `inline-block border-b-2 px-2 py-2 text-sm no-underline whitespace-nowrap ${current ? 'border-teal-700 font-semibold text-gray-900' : 'border-transparent text-gray-700 hover:text-gray-900'}`
          : `block rounded-md px-3 py-2 text-base no-underline ${current ? 'bg-teal-50 font-semibold text-gray-900' : 'text-gray-800 hover:bg-gray-50'}`;
      return (
        <li key={link.href}>
          <Link href={link.href} aria-current={current ? 'page' : undefined} className={`${look} ${focusRing}`}>
            {link.label}
            {link.badge ? (
              <span className="ml-1.5 inline-block rounded-full bg-red-100 px-1.5 py-0.5 align-middle text-xs font-semibold text-red-800" data-testid="nav-badge">
                {link.badge}
              </span>
            ) : null}
          </Link>
        </li>
      );
    });

  return (
    <header className="mb-4 border-b border-gray-200 bg-white" data-testid="back-office-nav">
      <div className="mx-auto flex max-w-7xl items-center gap-x-3 gap-y-2 px-4 py-3">
        <strong className="min-w-0 truncate text-base">{title}</strong>
        <span className="flex-1" />
        <span className="hidden text-sm break-all text-gray-600 md:inline" data-testid={emailTestId}>
          {email}
        </span>
        <LanguageSwitch locale={locale} returnTo={pathname} label={texts.language} className="m-0 shrink-0 [&>button]:cursor-pointer [&>button]:whitespace-nowrap [&>button]:rounded-md [&>button]:border [&>button]:border-gray-400 [&>button]:bg-white [&>button]:px-2 [&>button]:py-1 [&>button]:text-sm [&>button]:[font-family:inherit]" />
        <button
          type="button"
          className={quietButton}
          disabled={pending}
          onClick={async () => {
            setPending(true);
            await signOut({ redirect: false });
            // A full load, so that no signed-in page stays in the client router's cache.
            // eslint-disable-next-line @next/next/no-location-assign-relative-destination
            window.location.assign('/portal/sign-in');
          }}
        >
          {texts.signOut}
        </button>
        {/* Keyed by the page, so that following one of its links closes the menu instead of leaving it over the new page. */}
        <details key={pathname} className="group relative lg:hidden" data-testid="nav-menu">
          <summary className={`${quietButton} list-none [&::-webkit-details-marker]:hidden`} aria-label={texts.menu}>
            <span aria-hidden="true">☰</span> {texts.menu}
          </summary>
          <div className="absolute right-0 z-20 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-lg border border-gray-200 bg-white p-2 shadow-lg">
            <nav aria-label={label}>
              <ul className="m-0 list-none p-0">{linkList('menu')}</ul>
            </nav>
            <p className="m-0 mt-2 border-t border-gray-100 px-3 pt-2 pb-1 text-sm break-all text-gray-600 md:hidden">{email}</p>
          </div>
        </details>
      </div>
      <nav aria-label={label} className="mx-auto hidden max-w-7xl px-4 lg:block">
        <ul className="m-0 flex list-none gap-1 p-0">{linkList('tabs')}</ul>
      </nav>
    </header>
  );
}
