/**
 * The body of a Web Request, or 'too-large' as soon as it is known to exceed `maxBytes` (a declared Content-Length
 * over the limit is refused before reading anything; otherwise reading stops at the first chunk past it).
 */
export async function readLimitedBody(request: Request, maxBytes: number): Promise<Uint8Array | 'too-large'> {
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return 'too-large';
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return 'too-large';
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
