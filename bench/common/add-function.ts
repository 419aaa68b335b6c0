// The one function every benchmark turn calls, described the same way to both sides.
export const ADD = {
  name: 'add',
  description: 'Adds two numbers.',
  parameters: {
    type: 'object' as const,
    properties: { a: { type: 'number' as const }, b: { type: 'number' as const } },
    required: ['a', 'b'],
    additionalProperties: false as const,
  },
};
