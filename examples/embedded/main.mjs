// The embedded SDK in one program: an agent with a local function, in this process, for a
// two-turn conversation. `npm run example:embedded` builds and runs it.
// LLM_BASE_URL, LLM_API_KEY, LLM_MODEL name any OpenAI-compatible endpoint; without LLM_BASE_URL
// the repository's scripted model is started in this process with ./script.json.
// Exits 0 when the conversation ended well and the function ran, 1 otherwise.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// In the monorepo: the built library. An application installs @agentchassis/agent and imports it.
const require = createRequire(import.meta.url);
const { createAgent, defineFunction, openai } = require('../../dist/libs/agent/src/index.js');
const { startScriptedLlm } = require('../../dist/libs/testing/src/scripted-llm/scripted-llm.server.js');

const scripted = process.env.LLM_BASE_URL
  ? undefined
  : await startScriptedLlm({
      script: JSON.parse(readFileSync(new URL('script.json', import.meta.url), 'utf8')),
    });
let ran = 0;

// --- the example's core (the README's "Embedded SDK" section) ---
const getWeather = defineFunction({
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: async ({ city }) => {
    console.log(`(get_weather ran for ${city})`);
    ran += 1;
    return { data: { city, temperature_c: 4, sky: 'cloudy' } };
  },
});

const agent = createAgent({
  name: 'weather',
  instructions: 'You answer questions about the weather, briefly.',
  model: openai({
    baseURL: scripted?.url ?? process.env.LLM_BASE_URL,
    apiKey: process.env.LLM_API_KEY,
    model: scripted ? 'scripted-model' : (process.env.LLM_MODEL ?? 'gpt-4o-mini'),
  }),
  functions: [getWeather],
});

let ok = true;
try {
  const chat = agent.session();
  for (const question of ['What is the weather in Oslo?', 'Should I take a coat?']) {
    const turn = await chat.submitTurn(question);
    console.log(`> ${question}\n${turn.reply}`);
    ok &&= turn.finish_reason === 'final';
  }
} catch (err) {
  console.error(err);
  ok = false;
} finally {
  await scripted?.close();
}
if (ran === 0) console.error('the agent never called get_weather');
process.exit(ok && ran > 0 ? 0 : 1);
