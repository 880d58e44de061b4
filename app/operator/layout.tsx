import type { ReactNode } from 'react';
import { OperatorNav } from '@/components/operator/operator-nav';
import { requireOperator } from './_session/require-operator';

export const metadata = { title: 'Operator console · 运营后台' };

/** Every page below checks the session itself too (layouts are not re-run on client navigation). */
export default async function OperatorLayout({ children }: { children: ReactNode }) {
  const operator = await requireOperator();
  return (
    <div className="min-h-screen bg-gray-50 text-gray-900">
      <a href="#main" className="absolute -left-[999px] focus:top-2 focus:left-2 focus:z-10 focus:bg-white focus:p-2">
        Skip to content / 跳到正文
      </a>
      <OperatorNav email={operator.email} />
      <main id="main" className="mx-auto max-w-7xl px-4 py-5">
        {children}
      </main>
    </div>
  );
}
