import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { measureCorpus, measureLargeToolset } from './budget';
import { measureBilled } from './billed';
import { measureSessionCache } from './session-cache';
import { CONVERSATIONS, RESULT_SCENARIOS } from './scenarios';
import { scoreParsers } from './parser-choice';
import { renderReport, SECTION_HEADING, type Machine } from './report';

// Run from the repo root after `npm run build` (see report.ts for the command): prints the benchmark
// section of docs/benchmarks.md, and with --write replaces that section in place.
const DOC_PATH = 'docs/benchmarks.md';

async function main(): Promise<void> {
  const billed = await measureBilled([...RESULT_SCENARIOS, ...CONVERSATIONS]);
  const session = await measureSessionCache();
  const report = renderReport(measureCorpus(), measureLargeToolset(), scoreParsers(), describeMachine(), {
    billed,
    session,
  });
  console.log(report);
  if (process.argv.includes('--write')) writeSection(report);
}

function describeMachine(): Machine {
  const tokenizer = JSON.parse(readFileSync('node_modules/gpt-tokenizer/package.json', 'utf8')) as {
    version: string;
  };
  return {
    date: new Date().toISOString().slice(0, 10),
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: availableParallelism(),
    node: process.version,
    tokenizer: `o200k_base (gpt-tokenizer ${tokenizer.version})`,
  };
}

/** Replaces this bench's section (up to the next `## ` heading), leaving the others alone. */
function writeSection(report: string): void {
  const doc = existsSync(DOC_PATH) ? readFileSync(DOC_PATH, 'utf8') : '# Benchmarks\n';
  const start = doc.indexOf(SECTION_HEADING);
  const next = start < 0 ? -1 : doc.indexOf('\n## ', start + SECTION_HEADING.length);
  const updated =
    start < 0
      ? `${doc.trimEnd()}\n\n${report}\n`
      : `${doc.slice(0, start)}${report}\n${next < 0 ? '' : doc.slice(next)}`;
  writeFileSync(DOC_PATH, updated);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
