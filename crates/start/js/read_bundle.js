// Reads a bundle (xtask/src/split/bundle.rs) as it streams in: the length of its table (4 bytes,
// little-endian), the table (JSON: each part's file name and length), then the parts one after
// another. `tabled(table)` is called once the table is here and checked; `delivered(index, bytes)`
// once each part's last byte is. Throws on anything else (a table too long or malformed, a part
// that is not a module of this folder, bytes beyond the table's, a bundle that ends short):
// the caller then fetches the parts not delivered from their own files.
// `split/boot.js` imports it once it asks for a bundle (`cargo xtask dist` writes it beside
// `boot.js`, minified), and `read_bundle.test.mjs` tests this file, and its minified copy,
// against the parts it was made of.
export async function readBundle(body, tabled, delivered) {
  const MAX_TABLE = 65536, MAX_PARTS = 64 << 20;
  const reader = body.getReader();
  let head = new Uint8Array(0), table, bytes, filled = 0, from = 0, next = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    let chunk = value;
    if (bytes === undefined) {
      const joined = new Uint8Array(head.length + chunk.length);
      joined.set(head);
      joined.set(chunk, head.length);
      head = joined;
      if (head.length < 4) continue;
      const length = new DataView(head.buffer).getUint32(0, true);
      if (length > MAX_TABLE) throw new Error(`a table of ${length} bytes`);
      if (head.length < 4 + length) continue;
      table = JSON.parse(new TextDecoder().decode(head.subarray(4, 4 + length)));
      const good = Array.isArray(table) && table.every((entry) => Array.isArray(entry)
        && entry.length === 2 && /^[a-z0-9_]+\.wasm$/.test(entry[0])
        && Number.isSafeInteger(entry[1]) && entry[1] >= 0);
      const total = good ? table.reduce((sum, [, size]) => sum + size, 0) : -1;
      if (!good || total > MAX_PARTS) throw new Error("not a table of parts");
      tabled(table);
      bytes = new Uint8Array(total);
      chunk = head.subarray(4 + length);
    }
    if (filled + chunk.length > bytes.length) throw new Error("bytes beyond the table's");
    bytes.set(chunk, filled);
    filled += chunk.length;
    while (next < table.length && filled >= from + table[next][1]) {
      const to = from + table[next][1];
      delivered(next, bytes.slice(from, to));
      from = to;
      next++;
    }
  }
  if (table === undefined || next < table.length) throw new Error("the bundle ended short");
}
