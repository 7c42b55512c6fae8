// Pyodide memory snapshots kept in the Cache Storage: a worker saves the interpreter's memory with the engine
// imported (engine-worker.js, role "make-snapshot"), and later visits restore it instead of starting Python
// and importing the engine again.
//
// One entry per Pyodide version, saved with what it holds (engine-worker.js snapshotOf: the sha256 of the
// engine wheel and of the standard library); storing one deletes the others. Every failure here is quiet and
// means "no snapshot": where the Cache Storage is missing or refuses (private modes, quota), Python starts as
// usual.

const CACHE_NAME = "coinche-pyodide-snapshots";
const SIZE_HEADER = "X-Snapshot-Bytes";
const ENGINE_HEADER = "X-Snapshot-Engine";
const STORED_HEADER = "X-Snapshot-Stored"; // the packed entry's length

// A snapshot is Python's whole memory (30 MiB), three fifths of it pages of zeros: it is stored without them,
// so that a later visit reads some 12 MB instead of 30. Layout (little-endian uint32s, then bytes): the
// snapshot's length, the number k of pages kept, their k indexes (in order), then those pages' bytes (the
// last page of the snapshot may be short).
const PAGE = 65536;

// The length of page number `page` of a snapshot of `length` bytes (the last one may be short).
function pageLength(length, page) {
  return Math.min(PAGE, length - page * PAGE);
}

export function pack(bytes) {
  if (bytes.byteOffset % 4) bytes = bytes.slice(); // read four bytes at a time below
  const pages = Math.ceil(bytes.length / PAGE);
  const kept = [];
  for (let page = 0; page < pages; page++) {
    const start = page * PAGE;
    const end = start + pageLength(bytes.length, page);
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset + start, (end - start) >> 2);
    let zero = words.every((word) => word === 0);
    for (let i = start + words.length * 4; zero && i < end; i++) zero = bytes[i] === 0;
    if (!zero) kept.push(page);
  }
  const head = 8 + 4 * kept.length;
  let size = head;
  for (const page of kept) size += pageLength(bytes.length, page);
  const packed = new Uint8Array(size);
  const view = new DataView(packed.buffer);
  view.setUint32(0, bytes.length, true);
  view.setUint32(4, kept.length, true);
  let at = head;
  kept.forEach((page, i) => {
    view.setUint32(8 + 4 * i, page, true);
    const chunk = bytes.subarray(page * PAGE, page * PAGE + pageLength(bytes.length, page));
    packed.set(chunk, at);
    at += chunk.length;
  });
  return packed;
}

// The snapshot that pack() stored, or null if `buffer` is not one whole.
export function unpack(buffer) {
  if (buffer.byteLength < 8) return null;
  const view = new DataView(buffer);
  const length = view.getUint32(0, true);
  const count = view.getUint32(4, true);
  const head = 8 + 4 * count;
  if (head > buffer.byteLength) return null;
  const bytes = new Uint8Array(length);
  let at = head;
  let previous = -1;
  for (let i = 0; i < count; i++) {
    const page = view.getUint32(8 + 4 * i, true);
    const size = pageLength(length, page);
    if (page <= previous || size <= 0 || at + size > buffer.byteLength) return null;
    bytes.set(new Uint8Array(buffer, at, size), page * PAGE);
    at += size;
    previous = page;
  }
  return at === buffer.byteLength ? bytes : null;
}

export class SnapshotStore {
  #key;

  // key: a URL naming the snapshot (Cache Storage keys are URLs; nothing is fetched from it).
  constructor(key) {
    this.#key = key;
  }

  static available() {
    return typeof caches !== "undefined";
  }

  // The saved snapshot {engine, bytes} or null if there is none: engine says what it holds (as written),
  // bytes a promise of its bytes, read while the caller goes on (it rejects if the entry is not whole).
  async read() {
    let response;
    try {
      response = await (await caches.open(CACHE_NAME)).match(this.#key);
    } catch {
      return null; // no Cache Storage here: no snapshot
    }
    if (!response) return null;
    const bytes = response.arrayBuffer().then(async (buffer) => {
      const snapshot = buffer.byteLength > 0 && String(buffer.byteLength) === response.headers.get(STORED_HEADER)
        ? unpack(buffer) : null;
      if (snapshot && String(snapshot.length) === response.headers.get(SIZE_HEADER)) return snapshot;
      await this.drop();
      throw new Error(`the saved snapshot is not whole (${buffer.byteLength} bytes)`);
    });
    bytes.catch(() => {}); // the caller's to handle
    return { engine: response.headers.get(ENGINE_HEADER), bytes };
  }

  // Save bytes as this key's snapshot of `engine` and delete every other; resolves true once written, false
  // if given up.
  async write(bytes, engine) {
    try {
      const cache = await caches.open(CACHE_NAME);
      const packed = pack(bytes);
      const headers = {
        "Content-Type": "application/octet-stream", [SIZE_HEADER]: String(bytes.length),
        [STORED_HEADER]: String(packed.length), [ENGINE_HEADER]: engine,
      };
      await cache.put(this.#key, new Response(packed, { headers }));
      for (const request of await cache.keys()) {
        if (request.url !== this.#key) await cache.delete(request);
      }
      return true;
    } catch {
      return false; // quota or no Cache Storage: the next visit starts Python as usual
    }
  }

  async drop() {
    try {
      await (await caches.open(CACHE_NAME)).delete(this.#key);
    } catch {
      // nothing to drop
    }
  }
}
