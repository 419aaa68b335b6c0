import type { ViewProps } from './app';
import { Section } from './ui';

export function AgentsView(props: ViewProps) {
  return <Section title="Agents">Coming soon ({props.scopes.length} scopes).</Section>;
}
