// An error of the engine or of the referee ({code, params, message}) as the reader's text: its catalogue
// key and parameters, bad input echoed as a short excerpt, never whole.
import { has, t } from "./i18n.js";

// At most EXCERPT characters of a piece of bad input, with "…" when cut: a message never echoes a whole
// 100,000-character link. A detail (the message of an unexpected error) keeps up to DETAIL characters. Cut
// after the last "," or "&" that fits, so that no card is cut in half, as the engine quotes bad input
// (coinche.errors.excerpt): excerpt("Jh,".repeat(9)) -> "Jh,Jh,Jh,Jh,Jh,Jh,Jh,…".
export const EXCERPT = 24;
const DETAIL = 160;

export function excerpt(text, limit = EXCERPT) {
  // whole code points, never half a pair; one more than the limit, to know whether the text goes on
  const chars = Array.from(String(text).slice(0, (limit + 1) * 2));
  if (chars.length <= limit) return chars.join("");
  const head = chars.slice(0, limit - 1);
  const cut = Math.max(head.lastIndexOf(","), head.lastIndexOf("&"));
  return `${(cut > 0 ? head.slice(0, cut + 1) : head).join("")}…`;
}

// {key, params} for `error`: the catalogue's `error.<code>` (or keys[code] when `keys` maps codes to keys),
// else `fallback`, which says the error's message as {detail}.
export function errorMessage(error, { keys = null, fallback = "error.internal" } = {}) {
  const code = error?.code ?? "";
  const params = { detail: excerpt(error?.message ?? code, DETAIL) };
  for (const [name, value] of Object.entries(error?.params ?? {})) {
    params[name] = typeof value === "string" ? excerpt(value, name === "detail" ? DETAIL : EXCERPT) : value;
  }
  if (code === "malformed_record") params.detail = recordReason(error.params ?? {}) ?? params.detail;
  const key = keys ? keys[code] : `error.${code}`;
  const known = key !== undefined && code !== "internal_error" && has(key); // internal_error: the engine's catch-all
  return { key: known ? key : fallback, params };
}

// Why the engine refused a record (its `reason`: coinche.record.REASONS) in the reader's words, the error that
// caused it (`cause`, {key, params}) said in them too; null for a reason this page does not know.
function recordReason({ reason, cause, ...params }) {
  const key = `error.record.${reason}`;
  if (typeof reason !== "string" || !has(key)) return null;
  const because = cause && typeof cause === "object" ? errorText({ code: cause.key, params: cause.params, message: cause.key }) : "";
  return t(key, { ...errorMessage({ params }).params, cause: because });
}

export function errorText(error, options) {
  const { key, params } = errorMessage(error, options);
  return t(key, params);
}
