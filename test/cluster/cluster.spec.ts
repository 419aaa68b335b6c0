import { crossGatewayCases } from './cross-gateway.cases';
import { faultCases } from './faults.cases';

// `npm run cluster` under test: three NATS nodes, two of each service, PostgreSQL, Redis and HAProxy,
// started from the installed servers on free ports. Each group of cases starts a cluster of its own, one
// after the other in this one file, so that two clusters never share the machine.
crossGatewayCases();
faultCases();
