// Pyodide memory snapshots kept in the Cache Storage: a worker saves the interpreter's memory with the engine
// imported (engine-worker.js, role "make-snapshot"), and later visits restore it instead of starting Python
// and importing the engine again (about 0.3 s instead of 1.5 to 3 s on a 2-core machine).
//
// One entry per Pyodide version, saved with the sha256 of the engine wheel it holds; storing one deletes the
// others. Every failure here is quiet and means "no snapshot": where the Cache Storage is missing or refuses
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

  // The saved snapshot {bytes, engine} (engine: the sha256 of the wheel it holds, or null), or null if there
  // is none or it is not whole.
  async read() {
    try {
      const response = await (await caches.open(CACHE_NAME)).match(this.#key);
      if (!response) return null;
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (bytes.length > 0 && String(bytes.length) === response.headers.get(SIZE_HEADER)) {
        return { bytes, engine: response.headers.get(ENGINE_HEADER) };
      }
      await this.drop();
    } catch {
      // no Cache Storage here: no snapshot
    }
    return null;
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
