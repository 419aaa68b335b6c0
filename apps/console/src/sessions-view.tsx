import type { ViewProps } from './app';
import { Section } from './ui';

export function SessionsView(props: ViewProps) {
  return <Section title="Sessions">Coming soon ({props.scopes.length} scopes).</Section>;
}
