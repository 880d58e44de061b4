/**
 * A GBK encoder for the simulator's bills (Node decodes GBK but has no encoder): the table is built once by decoding
 * every two-byte GBK sequence. A character GBK lacks becomes '?', as Windows' code page 936 writes it.
 */
let table: Map<string, number> | undefined;

function encodingTable(): Map<string, number> {
  if (table) return table;
  table = new Map();
  const decoder = new TextDecoder('gbk');
  for (let lead = 0x81; lead <= 0xfe; lead += 1) {
    for (let trail = 0x40; trail <= 0xfe; trail += 1) {
      if (trail === 0x7f) continue;
      const char = decoder.decode(Uint8Array.of(lead, trail));
      if (char.length === 1 && char !== '\ufffd' && !table.has(char)) table.set(char, (lead << 8) | trail);
    }
  }
  return table;
}

export function encodeGbk(text: string): Buffer {
  const codes = encodingTable();
  const bytes: number[] = [];
  for (const char of text) {
    const point = char.codePointAt(0)!;
    if (point < 0x80) bytes.push(point);
    else {
      const code = codes.get(char);
      if (code === undefined) bytes.push(0x3f);
      else bytes.push(code >> 8, code & 0xff);
    }
  }
  return Buffer.from(bytes);
}
