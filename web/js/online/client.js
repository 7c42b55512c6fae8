// One WebSocket to the 1v1 referee (referee/PROTOCOL.md, "coinche-referee/1"): JSON text frames, requests
// answered by the message carrying the same id, everything else handed to onMessage.
//
//   const client = new RefereeClient(url, { onMessage, onClose });
//   const welcome = await client.open();                  // rejects with RefereeError "unreachable"
//   const created = await client.request({ type: "create" });  // rejects with the referee's error

export const PROTOCOL = "coinche-referee/1";
const OPEN_TIMEOUT_MS = 8000;

export class RefereeError extends Error {
  // key: the referee's stable error key (or "unreachable", "protocol", "connection_lost"); params: its data.
  constructor({ key, params = {}, message = key }) {
    super(message);
    this.name = "RefereeError";
    this.code = key;
    this.params = params;
  }
}

export class RefereeClient {
  #url;
  #ws = null;
  #nextId = 1;
  #pending = new Map(); // id -> {resolve, reject}
  #closing = false;

  // onMessage(message): every message that answers no request; onClose({code, reason, byUs}): the socket ended.
  constructor(url, { onMessage = () => {}, onClose = () => {} } = {}) {
    this.#url = url;
    this.onMessage = onMessage;
    this.onClose = onClose;
  }

  get url() { return this.#url; }
  get connected() { return this.#ws?.readyState === WebSocket.OPEN; }

  // Connects and resolves with the referee's welcome (its protocol checked).
  open() {
    return new Promise((resolve, reject) => {
      let welcomed = false;
      const fail = (key) => {
        if (welcomed) return;
        welcomed = true;
        clearTimeout(timer);
        reject(new RefereeError({ key }));
        this.close();
      };
      const timer = setTimeout(() => fail("unreachable"), OPEN_TIMEOUT_MS);
      let ws;
      try {
        ws = new WebSocket(this.#url);
      } catch {
        fail("unreachable");
        return;
      }
      this.#ws = ws;
      ws.onmessage = (event) => {
        let message;
        try { message = JSON.parse(event.data); } catch { return; }
        if (!welcomed) {
          if (message.type === "error") { // turned away at the door: full, or too many from this address
            welcomed = true;
            clearTimeout(timer);
            reject(new RefereeError(message.error));
            return;
          }
          if (message.type !== "welcome" || message.protocol !== PROTOCOL) { fail("protocol"); return; }
          welcomed = true;
          clearTimeout(timer);
          resolve(message);
          return;
        }
        this.#receive(message);
      };
      ws.onclose = (event) => {
        fail("unreachable");
        if (this.#ws !== ws) return;
        this.#ws = null;
        for (const { reject: drop } of this.#pending.values()) drop(new RefereeError({ key: "connection_lost" }));
        this.#pending.clear();
        this.onClose({ code: event.code, reason: event.reason, byUs: this.#closing });
      };
    });
  }

  // Sends `message` with a fresh id; resolves with the message that answers it, rejects with its error.
  request(message) {
    if (!this.connected) return Promise.reject(new RefereeError({ key: "connection_lost" }));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#ws.send(JSON.stringify({ ...message, id }));
    });
  }

  send(message) {
    if (this.connected) this.#ws.send(JSON.stringify(message));
  }

  close() {
    this.#closing = true;
    this.#ws?.close(1000);
  }

  // Closes the socket as a network failure would: onClose reports it as not ours (tests).
  drop() {
    this.#ws?.close(4001, "dropped");
  }

  #receive(message) {
    const waiting = message.id !== undefined && this.#pending.get(message.id);
    if (waiting) {
      this.#pending.delete(message.id);
      if (message.type === "error") waiting.reject(new RefereeError(message.error));
      else waiting.resolve(message);
      return;
    }
    this.onMessage(message);
  }
}
