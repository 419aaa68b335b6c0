import type { ViewProps } from './view-props';
import { ErrorBox, Section, useLoad } from './ui';

export function HealthView({ client }: ViewProps) {
  const health = useLoad(() => client.health(), [client]);
  const report = health.value;
  const rows: [string, string][] = report
    ? [
        ...Object.entries(report.services).map(([name, state]): [string, string] => [name, state]),
        ['NATS', report.nats],
        ['Redis', report.redis],
        ['database', report.database],
        ['llm', report.llm],
      ]
    : [];
  return (
    <Section title="Health">
      <button type="button" onClick={health.reload}>
        Refresh
      </button>
      <ErrorBox error={health.error} />
      {report && (
        <>
          <p>
            Status: <strong class={report.status === 'ok' ? 'ok' : 'bad'}>{report.status}</strong>
          </p>
          {report.error && <p class="error">{report.error.message}</p>}
          <table>
            <thead>
              <tr>
                <th scope="col">Part</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([name, state]) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td class={state === 'ok' ? 'ok' : 'bad'}>{state}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Section>
  );
}
