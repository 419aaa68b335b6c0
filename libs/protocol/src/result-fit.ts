import { renderError, renderSuccess } from './result-render';
import { encodeData, isUniformTable, toJsonValue } from './toon-data';
import type { ResultContent, ResultEncodingOptions } from './types';

type Options = ResultEncodingOptions & { maxLength: number };

interface DataCut {
  value: unknown;
  /** The top-level rows, items or fields shown, the last of them possibly in part. */
  shown: number;
  partial: boolean;
}

interface State {
  message?: string;
  messageCut: boolean;
  /** Undefined: no data, or all of it left out. */
  data?: DataCut;
  markdownLines: number;
  /** When not even the first Markdown line fits whole: its start, cut at a word. */
  markdownHead?: string;
}

/**
 * Cuts a success result to `maxLength` characters without breaking anything: the message at a
 * word, the data to whole rows (a table), whole items or whole fields (the first of them cut the
 * same way, recursively, when not even one fits whole), never inside a value, the Markdown to
 * whole lines. What is kept is encoded afresh, so a TOON table's `[n]` counts the rows shown and
 * the block decodes; a `<note>` says what was left out and, for a function that pages, which
 * offset gives the rest. The Markdown gets up to half the room the data would otherwise leave.
 * Only when not even the bare envelope fits is the limit exceeded (well-formed beats short).
 */
export function fitSuccess(name: string, content: ResultContent, options: Options): string {
  const limit = options.maxLength;
  const plain = content.data === undefined ? undefined : toJsonValue(content.data);
  const lines = content.markdown ? content.markdown.split('\n') : [];
  const render = (state: State) => {
    const markdown =
      state.markdownLines > 0 ? lines.slice(0, state.markdownLines).join('\n') : state.markdownHead;
    const data = state.data ? encodeData(state.data.value, options) : undefined;
    const note = noteOf(name, state, plain, lines.length, options);
    return renderSuccess(name, { message: state.message, data, markdown, note });
  };
  const fits = (state: State) => render(state).length <= limit;

  const fill = (message: string | undefined, messageCut: boolean): State => {
    const state: State = { message, messageCut, markdownLines: 0 };
    const bare = render(state).length;
    if (bare > limit) return state;
    const markdownRoom = plain === undefined ? limit : bare + Math.floor((limit - bare) / 2);
    state.markdownLines = largest(
      0,
      lines.length,
      (n) => render({ ...state, markdownLines: n }).length <= markdownRoom,
    );
    if (plain !== undefined) {
      const cut = fitValue(plain, (value, partial) =>
        fits({ ...state, data: { value, shown: sizeOf(value), partial } }),
      );
      if (cut) state.data = { value: cut.value, shown: sizeOf(cut.value), partial: cut.partial };
    }
    state.markdownLines = largest(state.markdownLines, lines.length, (n) =>
      fits({ ...state, markdownLines: n }),
    );
    if (state.markdownLines === 0 && lines.length > 0) {
      const head = (n: number) => cutText(lines[0], n) || undefined;
      state.markdownHead = head(
        largest(0, lines[0].length, (n) => fits({ ...state, markdownHead: head(n) })),
      );
    }
    return state;
  };
  const whole = fill(content.message, false);
  if (fits(whole) || !content.message) return render(whole);
  const message = content.message;
  const bareWith = (n: number) =>
    render({ message: cutText(message, n) || undefined, messageCut: true, markdownLines: 0 });
  const length = largest(0, message.length, (n) => bareWith(n).length <= limit);
  return render(fill(cutText(message, length) || undefined, true));
}

/** An error whose message is over the limit: cut at a word. */
export function fitError(name: string, message: string, limit: number): string {
  const note = `Cut to ${limit} characters: error message cut.`;
  const length = largest(
    0,
    message.length,
    (n) => renderError(name, cutText(message, n), note).length <= limit,
  );
  return renderError(name, cutText(message, length), note);
}

type Fits = (value: unknown, partial: boolean) => boolean;

/**
 * The longest prefix of `value` that fits: an array keeps its first items, an object its first
 * fields. The next field of an object, or the first item of an array when not even one fits
 * whole, is then cut the same way (and the cut marked partial): a row is shown whole or not at
 * all unless it is the only one. A string, number or boolean fits whole or is left out.
 */
function fitValue(value: unknown, fits: Fits): { value: unknown; partial: boolean } | undefined {
  if (fits(value, false)) return { value, partial: false };
  if (typeof value !== 'object' || value === null) return undefined;
  const isArray = Array.isArray(value);
  const entries = isArray ? value.map((item, i) => [String(i), item] as const) : Object.entries(value);
  const build = (kept: (readonly [string, unknown])[]) =>
    isArray ? kept.map(([, item]) => item) : Object.fromEntries(kept);
  if (!fits(build([]), false)) return undefined;
  const count = largest(0, entries.length - 1, (n) => fits(build(entries.slice(0, n)), false));
  const whole = entries.slice(0, count);
  if (isArray && count > 0) return { value: build(whole), partial: false };
  const [key, next] = entries[count];
  const inner = fitValue(next, (part) => fits(build([...whole, [key, part]]), true));
  const partial = inner !== undefined && sizeOf(inner.value) > 0;
  return partial
    ? { value: build([...whole, [key, inner.value]]), partial }
    : { value: build(whole), partial: false };
}

function noteOf(name: string, state: State, plain: unknown, markdownTotal: number, options: Options): string {
  const parts: string[] = [];
  if (state.messageCut) parts.push('message cut');
  const data = dataNote(name, state.data, plain, options);
  if (data) parts.push(data);
  if (state.markdownHead) parts.push(`output cut within line 1 of ${markdownTotal}`);
  else if (state.markdownLines === 0 && markdownTotal > 0)
    parts.push(`output left out (${markdownTotal} lines)`);
  else if (state.markdownLines < markdownTotal)
    parts.push(`output cut after line ${state.markdownLines} of ${markdownTotal}`);
  return parts.length ? `Cut to ${options.maxLength} characters: ${parts.join('; ')}.` : '';
}

function dataNote(
  name: string,
  cut: DataCut | undefined,
  plain: unknown,
  options: Options,
): string | undefined {
  if (plain === undefined) return undefined;
  const total = sizeOf(plain);
  const unit = isUniformTable(plain) ? 'rows' : Array.isArray(plain) ? 'items' : 'fields';
  if (!cut)
    return typeof plain === 'object' && plain !== null ? `data left out (${total} ${unit})` : 'data left out';
  if (cut.shown === total && !cut.partial) return undefined;
  const shown = `${cut.shown} of ${total} ${unit} shown${cut.partial ? ', the last in part' : ''}`;
  if (!Array.isArray(plain)) return shown;
  const whole = cut.partial ? cut.shown - 1 : cut.shown;
  const paging = options.paging;
  return paging
    ? `${shown}; for the rest call ${name} again with ${paging.offsetParam}: ${paging.offset + whole}`
    : `${shown}; narrow the call to see the rest`;
}

function sizeOf(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return typeof value === 'object' && value !== null ? Object.keys(value).length : 1;
}

/**
 * Prose cut to its first `length` characters, backed off to a word boundary (a first word longer
 * than that is cut where it must, never inside a character), marked with `…`.
 */
function cutText(text: string, length: number): string {
  if (length >= text.length) return text;
  const head = text.slice(0, length);
  const space = head.search(/\s\S*$/);
  const kept = space > 0 ? head.slice(0, space).trimEnd() : head.replace(/[\uD800-\uDBFF]$/, '');
  return kept ? `${kept}…` : '';
}

/**
 * The largest n in [low, high] for which `ok(n)` holds, given that it holds for `low`: galloping
 * up from `low` first, so a probe is never much larger than the answer (a huge table is never
 * encoded whole to find the few rows that fit), then halving.
 */
function largest(low: number, high: number, ok: (n: number) => boolean): number {
  let best = low;
  let step = 1;
  while (best + step <= high && ok(best + step)) {
    best += step;
    step *= 2;
  }
  let [lo, hi] = [best + 1, Math.min(high, best + step - 1)];
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) [best, lo] = [mid, mid + 1];
    else hi = mid - 1;
  }
  return best;
}
