export default function Home() {
  return (
    <main className="checkout">
      <section className="card">
        <h1>Payment order service</h1>
        <p>Open API: POST /v1/api/open/order/submit and /v1/api/open/order/query. See the README.</p>
      </section>
    </main>
  );
}
