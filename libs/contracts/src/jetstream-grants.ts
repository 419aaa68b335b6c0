// What the official JetStream clients publish to use a bucket or a stream: the NATS grants it takes.

/**
 * What the official key-value client (`@nats-io/kv`) publishes for one bucket: its stream's API
 * (open or create, update the TTL, read the status), direct reads of keys, the ordered consumers
 * of a watch (create, read, delete) and their flow control answers, and writes to the keys.
 */
export function bucketPublishSubjects(bucket: string): string[] {
  const stream = `KV_${bucket}`;
  return [
    `$JS.API.STREAM.INFO.${stream}`,
    `$JS.API.STREAM.CREATE.${stream}`,
    `$JS.API.STREAM.UPDATE.${stream}`,
    `$JS.API.DIRECT.GET.${stream}.>`,
    `$JS.API.CONSUMER.CREATE.${stream}.>`,
    `$JS.API.CONSUMER.INFO.${stream}.*`,
    `$JS.API.CONSUMER.DELETE.${stream}.*`,
    `$JS.FC.${stream}.>`,
    `$KV.${bucket}.>`,
  ];
}

/**
 * What the official JetStream client (`@nats-io/jetstream`) publishes to open and read one stream:
 * its API (open or create, update its limits, read its status, get the last message of a subject),
 * the ordered consumers that read it (create, read, delete) and their flow control answers, and the
 * direct gets a reader falls back to when its consumer cannot be created.
 */
export function streamPublishSubjects(stream: string): string[] {
  return [
    `$JS.API.STREAM.INFO.${stream}`,
    `$JS.API.STREAM.CREATE.${stream}`,
    `$JS.API.STREAM.UPDATE.${stream}`,
    `$JS.API.STREAM.MSG.GET.${stream}`,
    `$JS.API.DIRECT.GET.${stream}`,
    `$JS.API.DIRECT.GET.${stream}.>`,
    `$JS.API.CONSUMER.CREATE.${stream}.>`,
    `$JS.API.CONSUMER.INFO.${stream}.*`,
    `$JS.API.CONSUMER.DELETE.${stream}.*`,
    `$JS.FC.${stream}.>`,
  ];
}
