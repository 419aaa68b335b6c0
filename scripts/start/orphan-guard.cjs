// Preloaded (`node --require`) into every service `npm start` runs. Its stdin is a pipe whose other
// end only the supervisor holds, so the pipe closes when the supervisor dies, however it dies
// (kill -9 included): then the service stops gracefully, as on SIGTERM, instead of living on.
let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  process.kill(process.pid, 'SIGTERM');
}
process.stdin.on('end', stop).on('error', stop).resume();
process.stdin.unref();
