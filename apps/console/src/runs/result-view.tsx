import { decodeResult } from '@app/protocol';
import { useMemo, useState } from 'preact/hooks';
import { json } from '../format';
import { Pre } from '../ui';
import { Markdown } from './markdown';

type Decoded = ReturnType<typeof decodeResult>;

const MAX_ROWS = 200;

/** A `<result>` as the model read it, tried as the protocol's own decoder reads it back; null when it does not decode. */
export function tryDecode(xml: string): Decoded | null {
  try {
    return decodeResult(xml);
  } catch {
    return null;
  }
}

/**
 * A function result decoded: its message, its data as a table when it is one (else as JSON), its
 * markdown rendered, its error; the raw XML the model read one click away.
 */
export function ResultView({ xml, label }: { xml: string; label: string }) {
  const decoded = useMemo(() => tryDecode(xml), [xml]);
  const [raw, setRaw] = useState(false);
  if (!decoded) return <Pre label={`${label} (raw)`}>{xml}</Pre>;
  return (
    <div class="result" aria-label={label} role="group">
      <div class="row tight">
        <span class={decoded.status === 'error' ? 'bad' : 'ok'}>{decoded.status}</span>
        <button
          type="button"
          class="secondary small"
          aria-pressed={raw}
          onClick={() => setRaw(!raw)}
          aria-label={`${raw ? 'Decoded' : 'Raw XML'}: ${label}`}
        >
          {raw ? 'Decoded' : 'Raw XML'}
        </button>
      </div>
      {raw ? <Pre label={`${label} raw XML`}>{xml}</Pre> : <DecodedParts result={decoded} label={label} />}
    </div>
  );
}

function DecodedParts({ result, label }: { result: Decoded; label: string }) {
  return (
    <>
      {result.message && <p class="result-message">{result.message}</p>}
      {result.error && <p class="error">{result.error}</p>}
      {result.data !== undefined && <DataView data={result.data} label={`${label} data`} />}
      {result.markdown && <Markdown text={result.markdown} label={`${label} markdown`} />}
      {result.note && <p class="muted">{result.note}</p>}
    </>
  );
}

/** Rows of objects as a table (every key a column); anything else as JSON. */
export function DataView({ data, label }: { data: unknown; label: string }) {
  const rows = tableRows(data);
  if (!rows) return <Pre label={label}>{json(data)}</Pre>;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table class="data">
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" key={c}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, MAX_ROWS).map((row, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c}>{cellText(row[c])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > MAX_ROWS && (
        <p class="muted">
          First {MAX_ROWS} of {rows.length} rows.
        </p>
      )}
    </div>
  );
}

/** An array of plain objects (or one object, as a one-row table): what a table can show. */
export function tableRows(data: unknown): Record<string, unknown>[] | null {
  const isRecord = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (Array.isArray(data) && data.length > 0 && data.every(isRecord)) return data;
  if (isRecord(data) && Object.values(data).every((v) => typeof v !== 'object' || v === null)) return [data];
  return null;
}

function cellText(value: unknown): string {
  if (value === undefined) return '';
  if (value === null) return 'null';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
