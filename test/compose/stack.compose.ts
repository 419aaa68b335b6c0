// The compose tier (`npm run test:compose`; scripts/compose/run.sh builds the images, then runs
// this file): the project's docker-compose.yml started for real, as users start it, with the
// scripted model. Checks run in order on one stack: it serves, its images are as they should be,
// then it scales and survives its faults.
import { beforeAll, describe } from 'vitest';
import { scaleAndFaultChecks } from './faults';
import { imageChecks, type StartTime, startTimes } from './images';
import { servingChecks, upChecks } from './serving';
import { ADMIN_KEY, compose, published, SERVICES, type Stack, untilHealthy } from './stack';

describe('docker compose up, for real', () => {
  const stack: Stack = {
    base: '',
    llm: '',
    adminKey: ADMIN_KEY,
    sessions: [],
    natsLogs: [],
    ps: () => compose(['ps']),
  };
  let times: StartTime[] = [];

  beforeAll(async () => {
    await compose(['up', '-d'], 600_000);
    await untilHealthy(['nats', 'redis', 'postgres', ...SERVICES], 1, 240_000);
    times = await startTimes();
    stack.base = await published('gateway', 3000);
    stack.llm = await published('llm', 4010);
  }, 900_000);

  describe('is up', () => upChecks(stack));
  describe('serves', () => servingChecks(stack));
  describe('ships images worth shipping', () => imageChecks(stack, () => times));
  describe('scales and survives its faults', () => scaleAndFaultChecks(stack));
});
