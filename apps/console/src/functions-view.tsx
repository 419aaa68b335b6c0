import type { ViewProps } from './app';
import { Section } from './ui';

export function FunctionsView(props: ViewProps) {
  return <Section title="Functions">Coming soon ({props.scopes.length} scopes).</Section>;
}
