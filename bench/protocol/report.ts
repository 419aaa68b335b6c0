import {
  CI_FLOOR_SAVING_VS_FUNCTION_CALLING,
  CI_FLOOR_TABLE_DATA_SAVING,
  LARGE_TOOLSET_TOKEN_LIMIT,
  saving,
  TABULAR_SAVING_TARGET,
  tableCases,
  TARGET_TABLE_CASE,
  type CaseTokens,
  type CorpusTokens,
  type ToolsetTokens,
} from './budget';
import { FUNCTIONS } from './functions';
import { DEFINITION_BUDGET } from './measure';
import type { ParserScore } from './parser-choice';
import type { BilledScenario } from './billed';
import { BILLED_USD_SAVING_GOAL, billedSection, sessionSection, UNCACHED_SAVING_GOAL } from './billed-report';
import { billPartsSection } from './bill-parts';
import { CONVERSATIONS, RESULT_SCENARIOS } from './scenarios';
import { CONTEXT_WINDOW, SESSION_TURNS, type SessionBill } from './session-cache';

export interface Machine {
  date: string;
  cpu: string;
  cores: number;
  node: string;
  tokenizer: string;
}

export const SECTION_HEADING = '## Protocol (bench/protocol)';
export const RUN_COMMAND =
  'npm run build && node_modules/.bin/node --import ./bench/protocol/ts-resolve.mjs bench/protocol/run.ts --write';

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const code = (text: string) => `\`${text}\``;
const met = (ok: boolean) => (ok ? '**met**' : '**not met**');

export function renderReport(
  corpus: CorpusTokens,
  toolset: ToolsetTokens,
  parsers: ParserScore[],
  machine: Machine,
  bill: { billed: BilledScenario[]; session: SessionBill[] },
): string {
  return [
    SECTION_HEADING,
    '',
    `Run from the repo root: \`${RUN_COMMAND}\` (prints this section; \`--write\` replaces it here).`,
    `Measured ${machine.date} on ${machine.cpu}, ${machine.cores} cores (\`nproc\`), Node ${machine.node}, ` +
      `tokenizer ${machine.tokenizer}. Token counts are exact and deterministic; no timing is involved.`,
    '',
    ...budgetSection(corpus, toolset),
    '',
    ...corpusSection(corpus),
    '',
    ...tableSection(corpus),
    '',
    ...conversationSection(corpus),
    '',
    ...billedSection(bill.billed),
    '',
    ...billPartsSection(
      CONVERSATIONS,
      BILLED_USD_SAVING_GOAL,
      [...RESULT_SCENARIOS, ...CONVERSATIONS],
      UNCACHED_SAVING_GOAL,
    ),
    '',
    ...sessionSection(bill.session, SESSION_TURNS, CONTEXT_WINDOW),
    '',
    ...toolsetSection(toolset),
    '',
    ...parserSection(parsers),
  ].join('\n');
}

function budgetSection(corpus: CorpusTokens, toolset: ToolsetTokens): string[] {
  const target = corpus.cases.find((row) => row.name === TARGET_TABLE_CASE);
  const dataSaved = target?.data ? saving(target.data.ours, target.data.json) : 0;
  const requestSaved = target ? saving(target.final.ours, target.final.functionCalling) : 0;
  const worstVsCompact = Math.min(
    ...corpus.cases.map((row) => saving(row.billed.ours, row.billed.compactJson)),
  );
  const worstTable = Math.min(...tableCases(corpus).map((row) => saving(row.data!.ours, row.data!.json)));
  const total = saving(corpus.billed.ours, corpus.billed.functionCalling);
  return [
    '### Budgets',
    '',
    'What the protocol is held to; `libs/protocol/src/token-budget.spec.ts` checks each one on every test run.',
    '',
    '| Budget | measured | status |',
    '| --- | ---: | --- |',
    `| Tabular result (${TARGET_TABLE_CASE}): data alone at least ${percent(TABULAR_SAVING_TARGET)} fewer tokens than JSON | ${percent(dataSaved)} | ${met(dataSaved >= TABULAR_SAVING_TARGET)} |`,
    `| Same list call, whole request at least ${percent(TABULAR_SAVING_TARGET)} fewer than JSON FC | ${percent(requestSaved)} | ${met(requestSaved >= TABULAR_SAVING_TARGET)} |`,
    `| Never more tokens than compact JSON in the same envelope, any case | worst ${percent(worstVsCompact)} | ${met(worstVsCompact >= 0)} |`,
    `| Every other table, data alone: at least ${percent(CI_FLOOR_TABLE_DATA_SAVING)} fewer than JSON (CI floor) | worst ${percent(worstTable)} | ${met(worstTable >= CI_FLOOR_TABLE_DATA_SAVING)} |`,
    `| Whole corpus, billed: at least ${percent(CI_FLOOR_SAVING_VS_FUNCTION_CALLING)} fewer than JSON FC (CI floor) | ${percent(total)} | ${met(total >= CI_FLOOR_SAVING_VS_FUNCTION_CALLING)} |`,
    `| ${toolset.functions} functions: definitions at most ${LARGE_TOOLSET_TOKEN_LIMIT} tokens a request | ${toolset.ours} | ${met(toolset.ours <= LARGE_TOOLSET_TOKEN_LIMIT)} |`,
    '',
    `\`executor.function_definition_budget\` (\`AGENT_FUNCTION_DEFINITION_BUDGET\`, default ${DEFINITION_BUDGET} tokens) is where`,
    'full signatures give way to one line per function and `function_describe`.',
  ];
}

function corpusSection(corpus: CorpusTokens): string[] {
  const { billed, final } = corpus;
  return [
    '### Prompt tokens: xml-toon against JSON function calling',
    '',
    `Each case is an agent run with the same ${FUNCTIONS.length}-function toolset and instructions on both sides: one user`,
    "message, each step the model's calls and their results, one request per step plus one for the final answer.",
    '**Billed** sums the prompt tokens of every request (each re-sends the history); **final** is the last request.',
    '',
    '- **ours**: `buildSystemPrompt` (xml-toon, signatures), calls as `encodeCalls`, results as `encodeResult` in one user message.',
    '- **JSON FC**: OpenAI-style function calling: the `tools` array counted as sent (its JSON, as the API receives',
    '  it), assistant `tool_calls` with JSON arguments, one `tool` message per result carrying `JSON.stringify` of the',
    "  result. Per-message overheads as in gpt-tokenizer's estimator, for every variant.",
    '- **compact JSON**: ours, but every `<data>` block is `JSON.stringify` (isolates the TOON choice).',
    '',
    '| Case | ours | JSON FC | compact JSON | saved vs FC | saved vs compact JSON |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...corpus.cases.map(caseRow),
    `| **Total, billed** | **${billed.ours}** | **${billed.functionCalling}** | **${billed.compactJson}** | ` +
      `**${percent(saving(billed.ours, billed.functionCalling))}** | **${percent(saving(billed.ours, billed.compactJson))}** |`,
    `| Total, final request only | ${final.ours} | ${final.functionCalling} | ${final.compactJson} | ` +
      `${percent(saving(final.ours, final.functionCalling))} | ${percent(saving(final.ours, final.compactJson))} |`,
    '',
    `- Counting the \`tools\` array as gpt-tokenizer estimates OpenAI's internal rendering of it (smaller than its JSON), ` +
      `JSON FC would bill ${billed.functionCallingRendered} tokens in total and ours would save ` +
      `${percent(saving(billed.ours, billed.functionCallingRendered))}; ${costlierWhenRendered(corpus)}`,
  ];
}

/** The cases that cost more than JSON FC with its `tools` as rendered: the protocol section is paid on every request. */
function costlierWhenRendered(corpus: CorpusTokens): string {
  const costlier = corpus.cases.filter((row) => row.billed.ours > row.billed.functionCallingRendered);
  if (costlier.length === 0) return 'on that count too every case costs less than JSON FC.';
  return (
    `on that count ${costlier.map((row) => row.name).join(', ')} cost more than JSON FC, since the protocol ` +
    'section of our prompt is paid on every request.'
  );
}

function conversationSection(corpus: CorpusTokens): string[] {
  const rows = corpus.cases
    .filter((row) => row.kind === 'conversation')
    .map(
      (row) =>
        `| ${row.name} | ${row.steps + 1} | ${row.billed.ours} | ${row.billed.functionCalling} | ` +
        `${percent(saving(row.billed.ours, row.billed.functionCalling))} | ${row.final.ours} | ` +
        `${row.final.functionCalling} | ${percent(saving(row.final.ours, row.final.functionCalling))} |`,
    );
  return [
    '### Multi-step conversations',
    '',
    'The same three runs as above, request by request: every request re-sends the system prompt and the history.',
    '',
    '| Conversation | requests | billed, ours | billed, JSON FC | saved | final, ours | final, JSON FC | saved |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ];
}

function caseRow(row: CaseTokens): string {
  const { ours, functionCalling, compactJson } = row.billed;
  return (
    `| ${row.name} | ${ours} | ${functionCalling} | ${compactJson} | ` +
    `${percent(saving(ours, functionCalling))} | ${percent(saving(ours, compactJson))} |`
  );
}

function tableSection(corpus: CorpusTokens): string[] {
  const rows = tableCases(corpus).map((row) => {
    const data = row.data!;
    return (
      `| ${row.name} | ${data.ours} | ${data.json} | ${percent(saving(data.ours, data.json))} | ` +
      `${row.final.ours} | ${row.final.functionCalling} | ${percent(saving(row.final.ours, row.final.functionCalling))} |`
    );
  });
  return [
    '### Tabular results',
    '',
    'Data alone: what the data adds to our `<result>` (the `<data>` element with its tags, and `<every-row>`), against',
    "`JSON.stringify` of the same value. Whole request: the list call's request after its result, against JSON FC.",
    '',
    '| Table | data, ours | data, JSON | saved | request, ours | request, JSON FC | saved |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    '- Fields with one value in every row (the two `null`s of `delay_list`) are said once in `<every-row>`, when',
    '  that is cheaper. Tables without such fields save what TOON saves: the keys said once.',
    '- ISO timestamps stay quoted: TOON requires a string holding `:` to be quoted, and an unquoted timestamp in the',
    '  first column would read as a `key: value` line, so the block would not decode.',
    '- Rows of one kind whose fields vary (the log entries: `request_id` in some, `error: {code, retry}` in a few) are one',
    '  table too, `<data type="toon" absent="">`: the union of the fields as columns, an object’s fields as',
    '  `parent.child` columns, an empty cell where a row lacks the field (`,,,` at a line’s end is one token, `,~,~,~`',
    '  six; `~` where an empty cell could be misread); offered only where it reads back exactly and costs fewer tokens',
    '  than JSON (libs/protocol/src/sparse-table.ts).',
    '- TOON is written one space a level: o200k_base reads a row’s one space with its first value (` Bolt`, ` /var`),',
    '  where two spaces cost a token of their own on every row.',
  ];
}

function toolsetSection(toolset: ToolsetTokens): string[] {
  return [
    '### Large toolsets',
    '',
    `${toolset.functions} functions (\`bench/protocol/large-toolset.ts\`: \`<service>_<verb>_<entity>\`, a one-sentence`,
    `description, two parameters), definitions of one request. Over the ${toolset.budget}-token budget ours lists one`,
    'line per function (as many description words as fit, at worst the names grouped by prefix) and the model asks',
    '`function_describe` (answered by the executor from its catalogue, no bus hop) for a full signature.',
    '',
    '| Definitions | tokens |',
    '| --- | ---: |',
    `| ours (within the budget) | ${toolset.ours} |`,
    `| JSON FC, \`tools\` as sent | ${toolset.functionCalling} |`,
    `| JSON FC, \`tools\` as rendered (estimate) | ${toolset.functionCallingRendered} |`,
  ];
}

function parserSection(parsers: ParserScore[]): string[] {
  const cases = parsers[0] ? parsers[0].correct + parsers[0].failures.length : 0;
  return [
    '### Choosing the XML reader',
    '',
    `Each reader against the ${cases} replies of \`libs/protocol/src/reply-corpus.fixture.ts\` (the codec spec's`,
    'corpus), with the same value typing and data decoding behind it. xml2js is not installed (it rejects a raw',
    '`&` or `<`, which several corpus replies hold). `libs/protocol` uses the tolerant scanner.',
    '',
    '| Reader | replies read correctly | fails on |',
    '| --- | ---: | --- |',
    ...parsers.map(
      (score) =>
        `| ${score.parser} | ${score.correct}/${cases} | ${score.failures.map(code).join(', ') || '–'} |`,
    ),
  ];
}
