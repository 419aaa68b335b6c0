import type { ViewProps } from './app';
import { Section } from './ui';

export function TasksView(props: ViewProps) {
  return <Section title="Tasks">Coming soon ({props.scopes.length} scopes).</Section>;
}
