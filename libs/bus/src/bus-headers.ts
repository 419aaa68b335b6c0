import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
/** A message's headers as plain strings (trace context, deadlines, progress). */
export type BusHeaders = Record<string, string>;

export function toNatsHeaders(values?: BusHeaders): MsgHdrs | undefined {
  if (!values) return undefined;
  const entries = Object.entries(values);
  if (entries.length === 0) return undefined;
  const h = natsHeaders();
  for (const [k, v] of entries) h.set(k, v);
  return h;
}

export function fromNatsHeaders(h?: MsgHdrs): BusHeaders {
  const out: BusHeaders = {};
  if (!h) return out;
  for (const k of h.keys()) out[k.toLowerCase()] = h.get(k);
  return out;
}
