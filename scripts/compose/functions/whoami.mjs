// The compose tier's test function: answers with the name of the container that ran it (its
// host name), so that a test can see calls spread over the function-runner's replicas.
import { hostname } from 'node:os';

export default {
  name: 'whoami',
  description: 'Says which function-runner container ran the call.',
  parameters: { type: 'object', properties: {} },
  execute() {
    return { data: { host: hostname() } };
  },
};
