// Pyodide memory snapshots kept in the Cache Storage: a worker saves the interpreter's memory with the engine
// imported (engine-worker.js, role "make-snapshot"), and later visits restore it instead of starting Python
// and importing the engine again.
//
// One entry per Pyodide version, saved with what it holds (engine-worker.js snapshotOf: the sha256 of the
// engine wheel and of the standard library); storing one deletes the others. Every failure here is quiet and means "no snapshot": where the Cache Storage is missing or refuses
// (private modes, quota), Python starts as usual.

const CACHE_NAME = "coinche-pyodide-snapshots";
const SIZE_HEADER = "X-Snapshot-Bytes";
const ENGINE_HEADER = "X-Snapshot-Engine";

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
      if (buffer.byteLength > 0 && String(buffer.byteLength) === response.headers.get(SIZE_HEADER)) {
        return new Uint8Array(buffer);
      }
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
      const headers = {
        "Content-Type": "application/octet-stream", [SIZE_HEADER]: String(bytes.length), [ENGINE_HEADER]: engine,
      };
      await cache.put(this.#key, new Response(bytes, { headers }));
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
