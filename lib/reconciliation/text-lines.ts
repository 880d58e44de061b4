/**
 * The lines of a byte stream decoded with `encoding` (utf-8, gbk…), one at a time: only the current chunk and the
 * unfinished line are held, whatever the size of the file. Line ends are \n or \r\n.
 */
export async function* textLines(chunks: AsyncIterable<Uint8Array>, encoding: string): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding, { fatal: true });
  let pending = '';
  for await (const chunk of chunks) {
    pending += decoder.decode(chunk, { stream: true });
    let end = pending.indexOf('\n');
    while (end >= 0) {
      yield pending.slice(0, end).replace(/\r$/, '');
      pending = pending.slice(end + 1);
      end = pending.indexOf('\n');
    }
  }
  pending += decoder.decode();
  if (pending !== '') yield pending.replace(/\r$/, '');
}

/**
 * The fields of one CSV line (RFC 4180 quoting: "a,b" and "" inside quotes). `valuePrefix` is a character the writer
 * puts before every value, outside its quotes (WeChat Pay's backtick: `"a,b"): it is dropped, and the quote after it
 * opens a quoted field.
 */
export function csvFields(line: string, valuePrefix?: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStart = true;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (fieldStart && valuePrefix !== undefined && char === valuePrefix) {
      // The prefix belongs to no value; what follows starts the value, quoted or not.
      fieldStart = false;
      if (line[index + 1] === '"') {
        quoted = true;
        index += 1;
      }
    } else if (char === '"' && field === '' && fieldStart) {
      quoted = true;
      fieldStart = false;
    } else if (char === ',') {
      fields.push(field);
      field = '';
      fieldStart = true;
    } else {
      field += char;
      fieldStart = false;
    }
  }
  fields.push(field);
  return fields;
}
