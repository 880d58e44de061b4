import { getTranslations } from 'next-intl/server';

export default async function Home() {
  const t = await getTranslations('common.home');
  return (
    <main className="checkout">
      <section className="card">
        <h1>{t('title')}</h1>
        <p>{t.rich('intro', { code: (chunks) => <code>{chunks}</code> })}</p>
      </section>
    </main>
  );
}
