import http from 'node:http';

/**
 * In front of a real EVM node: forwards every JSON-RPC request, except eth_getLogs over more than `maxBlocks` blocks,
 * which it refuses the way Infura does (-32005 "query returned more than 10000 results"). Records the ranges asked.
 */
export async function startRangeLimitedProxy(target: string, port: number, maxBlocks: number) {
  const ranges: { from: number; to: number; refused: boolean }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', async () => {
      const request = JSON.parse(body) as { id: number; method: string; params: [{ fromBlock: string; toBlock: string }] };
      if (request.method === 'eth_getLogs') {
        const from = Number(request.params[0].fromBlock);
        const to = Number(request.params[0].toBlock);
        const refused = to - from + 1 > maxBlocks;
        ranges.push({ from, to, refused });
        if (refused) {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -32005, message: 'query returned more than 10000 results' } }));
          return;
        }
      }
      const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, ranges, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
