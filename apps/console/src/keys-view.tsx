import type { ViewProps } from './app';
import { Section } from './ui';

export function KeysView(props: ViewProps) {
  return <Section title="Keys">Coming soon ({props.scopes.length} scopes).</Section>;
}
