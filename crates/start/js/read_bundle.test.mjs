// The bundle reader (read_bundle.js) against the parts a bundle was made of: random parts, cut
// into the stream's chunks at random places, come back whole, in order, each once; a bundle
// cut short, too long or with a bad table throws, having delivered only whole parts.
// Run by `cargo test -p xtask` (split::bundle's tests) on the reader as written and as it ships,
// minified; or `node --test` on this file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
// The reader as written, or the file READ_BUNDLE names (the build's minified copy).
const { readBundle } = await import(process.env.READ_BUNDLE ?? './read_bundle.js');

/** A deterministic generator, so a failure can be replayed from its seed. */
function random(seed) {
  let state = seed >>> 0 || 1;
  return (below) => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state % below;
  };
}

/** The layout `bundle.rs` writes: the table's length, the table, the parts. */
function bundleOf(parts, table = parts.map(([name, bytes]) => [name, bytes.length])) {
  const json = new TextEncoder().encode(JSON.stringify(table));
  const out = new Uint8Array(4 + json.length + parts.reduce((n, [, b]) => n + b.length, 0));
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(json, 4);
  let at = 4 + json.length;
  for (const [, bytes] of parts) { out.set(bytes, at); at += bytes.length; }
  return out;
}

/** `bytes` as a stream of chunks cut at random places (some one byte long, some empty). */
function streamOf(bytes, next) {
  const chunks = [];
  for (let at = 0; at < bytes.length;) {
    const size = next(4) === 0 ? next(2) : 1 + next(Math.max(1, Math.min(bytes.length - at, 3000)));
    chunks.push(bytes.slice(at, at + size));
    at += size;
  }
  return new ReadableStream({
    pull(controller) {
      if (chunks.length === 0) controller.close(); else controller.enqueue(chunks.shift());
    },
  });
}

function randomParts(next) {
  return Array.from({ length: next(9) }, (_, i) => {
    const bytes = new Uint8Array(next(4) === 0 ? 0 : next(6000));
    for (let j = 0; j < bytes.length; j++) bytes[j] = next(256);
    return [`chunk_${i}.wasm`, bytes];
  });
}

async function read(stream) {
  const tables = [], delivered = [];
  let error;
  try {
    await readBundle(stream, (table) => tables.push(table), (index, bytes) => delivered.push([index, bytes]));
  } catch (e) {
    error = e;
  }
  return { tables, delivered, error };
}

test('every part comes back whole, in order, once, however the stream is cut', async () => {
  for (let seed = 1; seed <= 300; seed++) {
    const next = random(seed);
    const parts = randomParts(next);
    const { tables, delivered, error } = await read(streamOf(bundleOf(parts), next));
    assert.equal(error, undefined, `seed ${seed}`);
    assert.deepEqual(tables, [parts.map(([n, b]) => [n, b.length])], `seed ${seed}`);
    assert.deepEqual(delivered.map(([i]) => i), parts.map((_, i) => i), `seed ${seed}`);
    for (const [i, bytes] of delivered) assert.deepEqual(bytes, parts[i][1], `seed ${seed}, part ${i}`);
  }
});

test('a bundle cut short throws, having delivered exactly the parts it held whole', async () => {
  for (let seed = 1; seed <= 300; seed++) {
    const next = random(seed);
    const parts = randomParts(next);
    if (parts.reduce((n, [, b]) => n + b.length, 0) === 0) continue;
    const whole = bundleOf(parts);
    const cut = next(whole.length);
    const { delivered, error } = await read(streamOf(whole.slice(0, cut), next));
    assert.ok(error, `seed ${seed}: cut at ${cut} of ${whole.length}`);
    const header = whole.length - parts.reduce((n, [, b]) => n + b.length, 0);
    let end = header, held = 0;
    while (held < parts.length && cut >= header && end + parts[held][1].length <= cut) end += parts[held++][1].length;
    assert.equal(delivered.length, held, `seed ${seed}`);
    for (const [i, bytes] of delivered) assert.deepEqual(bytes, parts[i][1], `seed ${seed}, part ${i}`);
  }
});

test('bytes beyond the table, or a table that is not one of parts, throw', async () => {
  const next = random(7);
  const parts = [['chunk_1.wasm', new Uint8Array([1, 2, 3])]];
  const longer = new Uint8Array([...bundleOf(parts), 9]);
  assert.ok((await read(streamOf(longer, next))).error, 'a byte too many');
  for (const table of [
    [['../secret.wasm', 3]],
    [['chunk_1.js', 3]],
    [['chunk_1.wasm', -3]],
    [['chunk_1.wasm', 1.5]],
    [['chunk_1.wasm']],
    { chunk: 3 },
    [['chunk_1.wasm', 2 ** 40]],
  ]) {
    const { tables, delivered, error } = await read(streamOf(bundleOf(parts, table), next));
    assert.ok(error, JSON.stringify(table));
    assert.deepEqual([tables, delivered], [[], []], JSON.stringify(table));
  }
  const huge = new Uint8Array(8);
  new DataView(huge.buffer).setUint32(0, 1 << 30, true);
  assert.match(String((await read(streamOf(huge, next))).error), /table of/);
  assert.ok((await read(streamOf(new Uint8Array(0), next))).error, 'an empty answer');
});
