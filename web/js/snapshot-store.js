// Pyodide memory snapshots kept in the Cache Storage: the first visit records the interpreter's memory
// right after start-up, later visits restore it instead of starting Python again (about 0.3 s instead of
// 1.5 to 3 s on a 2-core machine).
//
// One entry per Pyodide version; storing one deletes the others. Every failure here is quiet and means
// "no snapshot": where the Cache Storage is missing or refuses (private modes, quota), Python starts as usual.

const CACHE_NAME = "coinche-pyodide-snapshots";
const SIZE_HEADER = "X-Snapshot-Bytes";

export class SnapshotStore {
  #key;

  // key: a URL naming the snapshot (Cache Storage keys are URLs; nothing is fetched from it).
  constructor(key) {
    this.#key = key;
  }

  static available() {
    return typeof caches !== "undefined";
  }

  // The saved snapshot's bytes, or null if there is none or it is not whole.
  async read() {
    try {
      const response = await (await caches.open(CACHE_NAME)).match(this.#key);
      if (!response) return null;
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (bytes.length > 0 && String(bytes.length) === response.headers.get(SIZE_HEADER)) return bytes;
      await this.drop();
    } catch {
      // no Cache Storage here: no snapshot
    }
    return null;
  }

  // Save bytes as this key's snapshot and delete every other; resolves once written (or given up).
  async write(bytes) {
    try {
      const cache = await caches.open(CACHE_NAME);
      const headers = { "Content-Type": "application/octet-stream", [SIZE_HEADER]: String(bytes.length) };
      await cache.put(this.#key, new Response(bytes, { headers }));
      for (const request of await cache.keys()) {
        if (request.url !== this.#key) await cache.delete(request);
      }
    } catch {
      // quota or no Cache Storage: the next visit starts Python as usual
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
