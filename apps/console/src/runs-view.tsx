import type { ViewProps } from './app';
import { Section } from './ui';

export function RunsView(props: ViewProps) {
  return <Section title="Runs">Coming soon ({props.scopes.length} scopes).</Section>;
}
